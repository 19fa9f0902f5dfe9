/**
 * Maps a hub watch event to the reconcile-step keys it should wake, for the relay that runs outside
 * the Worker. mailbox: a SyncTarget wakes its mailbox, a mailbox Workspace in the edge service
 * provider space (espw) wakes itself. where: SyncTargets and Locations wake every where-key (a
 * relabel can change any placement's selection); an EdgePlacement wakes its own, a
 * SinglePlacementSlice its placement's (lib/placement/slice-owner.ts). translate (keys are mailbox names): a slice wakes the mailboxes it names now and those
 * it named before (from the slice index, which the event also updates), a Location the mailboxes
 * slices reach through it (their copies take customization parameters from its labels and
 * annotations; a change of selection follows through the slices anyway), an EdgePlacement the
 * mailboxes of its slices (when the relay keeps `specs`, only for a new uid or generation: status
 * writes change nothing translate reads), a mailbox Workspace itself (a new mailbox needs its
 * content), and any other object in space S the mailboxes of every slice in S; objects in espw wake
 * nothing (nor do mailbox spaces, which hold no slices), and neither do the objects every cluster
 * makes for itself. When the relay keeps `sources`, a workload object's MODIFIED event wakes
 * translate only if what translate reads of it changed (lib/placement/translate-input.ts): the
 * summarize step's own writes on workload objects (executing count, edge-removal finalizer) would
 * otherwise re-translate every mailbox of the space after each one. Likewise, when the relay keeps
 * `syncTargets`, a SyncTarget's MODIFIED event that changed only its status (the heartbeat every
 * agent writes once a minute) wakes no mailbox, where or translate key: those steps read a
 * SyncTarget's existence, name, labels and annotations, never its status; at 10,000 edges the
 * heartbeats alone would wake every where key 167 times a second.
 * summarize: see summarize-keys.ts (reports in mailbox spaces, heartbeats, placements).
 * The deletion lifecycle (removal-keys.ts): a tombstone's events wake its mailbox's translate key,
 * a terminating workload object holding the edge-removal finalizer its space's summarize keys.
 * Key formats come from lib/reconcile/keys.ts, the module the steps use.
 */
import { createHash } from 'node:crypto'
import { isSystemInfrastructure } from '../apis/categories.ts'
import { CLUSTER_ANNOTATION, type KubeObject } from '../kube/types.ts'
import { canonicalJson } from '../patch/json-values.ts'
import { placementOfSlice, sliceWhereKey } from '../placement/slice-owner.ts'
import { translateInput } from '../placement/translate-input.ts'
import { isMailboxName, mailboxOf, whereKeyOf } from '../reconcile/keys.ts'
import { removalKeys } from './removal-keys.ts'
import { destinationsOfSlice, mailboxesOfSlice, type SliceIndex } from './slice-index.ts'
import { SUMMARIZE_STEP, type SummarizeKeysState, summarizeKeys } from './summarize-keys.ts'

export { isMailboxName, mailboxOf, SUMMARIZE_STEP, whereKeyOf }

export const MAILBOX_STEP = 'mailbox'
export const WHERE_STEP = 'where'
export const TRANSLATE_STEP = 'translate'

export type WatchEvent = { type: string; object: KubeObject }
export type StepKey = { step: string; key: string }
export type ResourceRef = { group: string; resource: string }

export type EventKeysDeps = {
  /** Logical-cluster id of the edge service provider space (root:espw). */
  espwSpaceId: string
  /** Every EdgePlacement in every space, each with its kcp.io/cluster annotation. */
  listEdgePlacements(): Promise<KubeObject[]>
  /** Slice -> mailboxes; slice events update it. */
  index: SliceIndex
  /** What the summarize keys need (mailbox spaces, heartbeats seen); without it, none. */
  summarize?: SummarizeKeysState
  /** EdgePlacement key -> `<uid>/<generation>` last seen; without it, every event translates. */
  specs?: Map<string, string>
  /**
   * Workload object (space, resource, namespace, name) -> hash of its translate input last seen;
   * without it, every event translates.
   */
  sources?: Map<string, string>
  /** SyncTarget (space, name) -> hash of it without its status last seen; without it, every event wakes. */
  syncTargets?: Map<string, string>
}

const EDGE = 'edge.kcp.io'
const CHANGES = ['ADDED', 'MODIFIED', 'DELETED']

const spaceOf = (obj: KubeObject) => obj.metadata?.annotations?.[CLUSTER_ANNOTATION] || undefined

const translate = (mailboxes: Iterable<string>): StepKey[] =>
  [...new Set(mailboxes)].sort().map((key) => ({ step: TRANSLATE_STEP, key }))

async function allWhereKeys(deps: EventKeysDeps): Promise<StepKey[]> {
  const keys = (await deps.listEdgePlacements()).map(whereKeyOf)
  return [...new Set(keys.filter((k): k is string => !!k))]
    .sort()
    .map((key) => ({ step: WHERE_STEP, key }))
}

const digest = (value: unknown) =>
  createHash('sha256').update(canonicalJson(value)).digest('base64')

/**
 * Whether an event moved what a step reads of its object: not a MODIFIED whose `input` (a hash of
 * that part) equals the one last seen under `key`. A DELETED forgets the key; without `seen`
 * (the relay keeps no memory) every event counts.
 */
function moved(
  seen: Map<string, string> | undefined,
  key: string,
  type: string,
  input: () => unknown
): boolean {
  if (!seen) return true
  if (type === 'DELETED') {
    seen.delete(key)
    return true
  }
  const hash = digest(input())
  const before = seen.get(key)
  seen.set(key, hash)
  return type !== 'MODIFIED' || before !== hash
}

/** A workload object's event and what translate reads of it (lib/placement/translate-input.ts). */
function inputMoved(type: string, ref: ResourceRef, obj: KubeObject, deps: EventKeysDeps) {
  const m = obj.metadata
  const key = [spaceOf(obj), ref.group, ref.resource, m.namespace ?? '', m.name ?? '']
  return moved(deps.sources, key.join('\u0000'), type, () => translateInput(obj))
}

/**
 * A SyncTarget's event and what the mailbox, where and translate steps read of it: everything
 * but its status (the heartbeat), resourceVersion and managedFields.
 */
function syncTargetMoved(type: string, obj: KubeObject, deps: EventKeysDeps) {
  const key = `${spaceOf(obj)}\u0000${obj.metadata.name ?? ''}`
  return moved(deps.syncTargets, key, type, () => {
    const { status: _status, ...rest } = obj
    const { resourceVersion: _rv, managedFields: _mf, ...meta } = obj.metadata
    return { ...rest, metadata: meta }
  })
}

/** translate keys for an object of any kind in its space (workload objects, Namespaces, CRDs...). */
function spaceKeys(
  type: string,
  ref: ResourceRef,
  obj: KubeObject,
  deps: EventKeysDeps
): StepKey[] {
  const space = spaceOf(obj)
  if (!space || space === deps.espwSpaceId) return []
  if (isSystemInfrastructure(ref.group, ref.resource, obj)) return []
  const mailboxes = deps.index.ofSpace(space)
  if (mailboxes.length === 0 || !inputMoved(type, ref, obj, deps)) return []
  return translate(mailboxes)
}

/** Updates the index for a slice event; wakes the mailboxes named now and before. */
function sliceKeys(type: string, obj: KubeObject, deps: EventKeysDeps): StepKey[] {
  const space = spaceOf(obj)
  const name = obj.metadata.name
  if (!space || !name || space === deps.espwSpaceId) return []
  const now = mailboxesOfSlice(obj)
  const before =
    type === 'DELETED'
      ? deps.index.remove(space, name)
      : deps.index.set(space, name, now, {
          locations: destinationsOfSlice(obj),
          placement: placementOfSlice(obj),
        })
  return translate([...now, ...before])
}

/**
 * Whether an EdgePlacement event may change what translate computes: not when the relay has seen
 * this placement at this uid and generation already (a status write by the where, translate or
 * summarize step), which would otherwise re-translate every mailbox of the placement.
 */
function specMoved(type: string, obj: KubeObject, deps: EventKeysDeps): boolean {
  const key = whereKeyOf(obj)
  if (!deps.specs || !key) return true
  if (type === 'DELETED') {
    deps.specs.delete(key)
    return true
  }
  const seen = `${obj.metadata.uid ?? ''}/${obj.metadata.generation ?? ''}`
  const before = deps.specs.get(key)
  deps.specs.set(key, seen)
  return before !== seen
}

function ownWhereKey(obj: KubeObject): StepKey[] {
  const key = whereKeyOf(obj)
  return key ? [{ step: WHERE_STEP, key }] : []
}

/**
 * The keys an event wakes: the mailbox, where and translate keys here, then the summarize keys
 * (summarize-keys.ts) when the relay keeps their state. Events that carry no object change
 * (BOOKMARK, ERROR) and objects missing the fields a key needs yield no keys.
 */
export async function keysForEvent(
  ref: ResourceRef,
  event: WatchEvent,
  deps: EventKeysDeps
): Promise<StepKey[]> {
  if (!CHANGES.includes(event.type) || !event.object?.metadata) return []
  const keys = await stepKeys(ref, event, deps)
  const summarize = deps.summarize
  if (!summarize) return keys
  return [
    ...keys,
    ...summarizeKeys(ref, event.type, event.object, { ...deps, summarize }),
    ...removalKeys(event.object, { index: deps.index, summarize }),
  ]
}

async function stepKeys(
  ref: ResourceRef,
  event: WatchEvent,
  deps: EventKeysDeps
): Promise<StepKey[]> {
  const obj = event.object
  if (ref.group === EDGE) {
    switch (ref.resource) {
      case 'synctargets': {
        if (!syncTargetMoved(event.type, obj, deps)) return []
        const mailbox = mailboxOf(obj)
        const own = mailbox ? [{ step: MAILBOX_STEP, key: mailbox }] : []
        return [...own, ...(await allWhereKeys(deps)), ...spaceKeys(event.type, ref, obj, deps)]
      }
      case 'locations': {
        const space = spaceOf(obj)
        const name = obj.metadata.name
        const through = space && name ? translate(deps.index.ofLocation(space, name)) : []
        return [...(await allWhereKeys(deps)), ...through, ...spaceKeys(event.type, ref, obj, deps)]
      }
      case 'edgeplacements': {
        const space = spaceOf(obj)
        const name = obj.metadata.name
        const moved = specMoved(event.type, obj, deps)
        const slices = space && name && moved ? deps.index.ofPlacement(space, name) : []
        return [...ownWhereKey(obj), ...translate(slices)]
      }
      case 'singleplacementslices': {
        const key = sliceWhereKey(obj)
        const own = key ? [{ step: WHERE_STEP, key }] : []
        return [...own, ...sliceKeys(event.type, obj, deps)]
      }
    }
  }
  if (ref.group === 'tenancy.kcp.io' && ref.resource === 'workspaces') {
    const name = obj.metadata.name
    if (spaceOf(obj) === deps.espwSpaceId && name && isMailboxName(name))
      return [{ step: MAILBOX_STEP, key: name }, ...translate([name])]
  }
  return spaceKeys(event.type, ref, obj, deps)
}

/**
 * After a relist: the slices the index holds that the list no longer has vanished while the watch
 * was away (their DELETED event is lost); forgets them and wakes their mailboxes.
 */
export function keysForRelist(
  ref: ResourceRef,
  items: readonly KubeObject[],
  deps: EventKeysDeps
): StepKey[] {
  if (ref.group !== EDGE || ref.resource !== 'singleplacementslices') return []
  const listed = new Set(items.map((o) => `${spaceOf(o)}\u0000${o.metadata?.name}`))
  const woken: string[] = []
  for (const s of deps.index.slices())
    if (!listed.has(`${s.space}\u0000${s.name}`)) woken.push(...deps.index.remove(s.space, s.name))
  return translate(woken)
}
