/**
 * Maps a hub watch event to the reconcile-step keys it should wake, for the relay that runs outside
 * the Worker. What the relay remembers to leave out events that change nothing a step reads is
 * event-memory.ts; each memory is optional (without it, every event counts).
 * - mailbox: a SyncTarget wakes its mailbox; a mailbox Workspace in the edge service provider space
 *   (espw) wakes itself when deleted or when its SyncTarget-name annotation or deletionTimestamp
 *   moved, never when added (the step's own create; a Workspace made by hand is the step's next
 *   run's, or the resync's).
 * - where: SyncTargets and Locations wake every where key (a relabel can change any placement's
 *   selection; the placements from a list read at most every few seconds and kept current by
 *   their events: placement-list.ts); an EdgePlacement its own, unless only other steps' status fields moved; a
 *   SinglePlacementSlice its placement's (lib/placement/slice-owner.ts); a mailbox Workspace that
 *   comes, goes or starts terminating those of the placements whose slices name it (their status
 *   says which Locations have no mailbox yet).
 * - translate (keys are mailbox names): a slice wakes the mailboxes it names now and those it named
 *   before (from the slice index, which the event also updates); a Location the mailboxes slices
 *   reach through it (their copies take customization parameters from its labels and annotations);
 *   an EdgePlacement the mailboxes of its slices, only for a new uid or generation (status writes
 *   change nothing translate reads); a mailbox Workspace itself (a new mailbox needs its content);
 *   any other object in space S the mailboxes of every slice in S, only when what translate reads
 *   of it changed (lib/placement/translate-input.ts: the summarize step's own writes would
 *   otherwise re-translate every mailbox of the space after each one), and not the mailboxes an
 *   event newer than the object's already woke. Objects in espw wake nothing (nor do mailbox
 *   spaces, which hold no slices), and neither do the objects every cluster makes for itself.
 * - A SyncTarget whose status alone changed (the heartbeat) wakes no mailbox, where or translate
 *   key: those steps read its existence, name, labels and annotations, never its status.
 * - summarize: see summarize-keys.ts (reports in mailbox spaces, heartbeats, placements). The
 *   deletion lifecycle (removal-keys.ts): a tombstone's events wake its mailbox's translate key, a
 *   terminating workload object holding the edge-removal finalizer its space's summarize keys.
 * - rollout: see rollout-keys.ts (a Rollout, the governed objects of its space, its space's
 *   slices, Locations; a Rollout's promotion or rollback wakes the mailboxes of its space it moves).
 * - Control objects (lib/tenancy/control-kinds.ts: placements, slices, SyncTargets, Locations,
 *   Customizers, Summarizers, Workspaces...) in root:espw or below it (provider-spaces.ts) wake
 *   nothing, but the mailbox Workspaces of root:espw itself: an edge that got them into its
 *   mailbox plants no placement, edge or space through the relay.
 * - An administrator's Inventory or PlacementGrant wakes every key of the mailbox, where,
 *   translate and summarize steps the relay can name (tenancy-keys.ts).
 * Key formats come from lib/reconcile/keys.ts, the module the steps use.
 */
import { isSystemInfrastructure } from '../apis/categories.ts'
import { CLUSTER_ANNOTATION, type KubeObject } from '../kube/types.ts'
import { placementOfSlice, sliceWhereKey } from '../placement/slice-owner.ts'
import { isMailboxName, mailboxOf, whereKeyOf } from '../reconcile/keys.ts'
import { isControlResource } from '../tenancy/control-kinds.ts'
import {
  inputMoved,
  notWokenSince,
  rememberWoken,
  rvOf,
  specMoved,
  syncTargetMoved,
  whereInputMoved,
} from './event-memory.ts'
import { mailboxKeys } from './mailbox-workspace-keys.ts'
import type { ProviderSpaces } from './provider-spaces.ts'
import { keysForRelist } from './relist-keys.ts'
import { removalKeys } from './removal-keys.ts'
import { type RolloutIndex, rolloutKeys } from './rollout-keys.ts'
import { destinationsOfSlice, mailboxesOfSlice, type SliceIndex } from './slice-index.ts'
import { SUMMARIZE_STEP, type SummarizeKeysState, summarizeKeys } from './summarize-keys.ts'
import { isTenancyPolicy, tenancyKeys } from './tenancy-keys.ts'

export { isMailboxName, keysForRelist, mailboxOf, SUMMARIZE_STEP, whereKeyOf }

import {
  MAILBOX_STEP,
  type ResourceRef,
  type StepKey,
  TRANSLATE_STEP,
  translate,
  WHERE_STEP,
} from './step-keys.ts'

export type { ResourceRef, StepKey }
export { MAILBOX_STEP, TRANSLATE_STEP, WHERE_STEP }

export type WatchEvent = { type: string; object: KubeObject }

export type EventKeysDeps = {
  /** Logical-cluster id of the edge service provider space (root:espw). */
  espwSpaceId: string
  /** Every EdgePlacement in every space, each with its kcp.io/cluster annotation. */
  listEdgePlacements(): Promise<KubeObject[]>
  /** Every SyncTarget in every space (read only for a tenancy event: tenancy-keys.ts). */
  listSyncTargets?: () => Promise<KubeObject[]>
  /** Told of every EdgePlacement event (placement-list.ts keeps its list current with them). */
  placementSeen?(type: string, obj: KubeObject): void
  /** Slice -> mailboxes; slice events update it. */
  index: SliceIndex
  /**
   * The spaces known to be root:espw or below it (provider-spaces.ts; Workspace events feed it);
   * without it, root:espw and the mailbox spaces the summarize state knows.
   */
  providers?: ProviderSpaces
  /** The Rollouts of each space (rollout-keys.ts); without it, no rollout key. */
  rollouts?: RolloutIndex
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
  /**
   * Mailbox Workspace name -> what the mailbox step reads of it last seen; without it, every
   * MODIFIED wakes the mailbox step.
   */
  mailboxes?: Map<string, string>
  /** EdgePlacement where key -> what the where step reads of it last seen; without it, every event wakes. */
  wheres?: Map<string, string>
  /**
   * Mailbox -> the highest resourceVersion of an event that woke its translate key; without it,
   * every workload event wakes the mailboxes of its space.
   */
  woken?: Map<string, number>
}

const EDGE = 'edge.kcp.io'
const CHANGES = ['ADDED', 'MODIFIED', 'DELETED']

const spaceOf = (obj: KubeObject) => obj.metadata?.annotations?.[CLUSTER_ANNOTATION] || undefined

/** Whether the space is root:espw or below, as far as the relay knows. */
function isProvider(deps: EventKeysDeps, space: string | undefined): boolean {
  if (!space) return false
  if (deps.providers) return deps.providers.has(space)
  return space === deps.espwSpaceId || !!deps.summarize?.mailboxSpaces.has(space)
}

/** A control object of a provider space, but a mailbox Workspace of root:espw (the step's own). */
function ignored(ref: ResourceRef, obj: KubeObject, deps: EventKeysDeps): boolean {
  if (!isControlResource(ref.group, ref.resource)) return false
  const space = spaceOf(obj)
  if (!isProvider(deps, space)) return false
  const workspace = ref.group === 'tenancy.kcp.io' && ref.resource === 'workspaces'
  return !(workspace && space === deps.espwSpaceId && isMailboxName(obj.metadata.name ?? ''))
}

async function allWhereKeys(deps: EventKeysDeps): Promise<StepKey[]> {
  const placements = await deps.listEdgePlacements()
  const keys = placements.filter((p) => !isProvider(deps, spaceOf(p))).map(whereKeyOf)
  return [...new Set(keys.filter((k): k is string => !!k))]
    .sort()
    .map((key) => ({ step: WHERE_STEP, key }))
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
  // Remembered even while no slice reaches the space: objects are usually written before their
  // placement, and the summarize step's first write on each would otherwise look like a change.
  const inputChanged = inputMoved(deps.sources, type, `${ref.group}/${ref.resource}`, obj)
  const mailboxes = deps.index.ofSpace(space)
  if (mailboxes.length === 0 || !inputChanged) return []
  return translate(notWokenSince(mailboxes, rvOf(obj), deps.woken))
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
 * An EdgePlacement's keys: its where key when what that step reads moved, the mailboxes of its
 * slices when its spec did.
 */
function placementKeys(type: string, obj: KubeObject, deps: EventKeysDeps): StepKey[] {
  const space = spaceOf(obj)
  const name = obj.metadata.name
  const moved = specMoved(deps.specs, whereKeyOf(obj), type, obj)
  const slices = space && name && moved ? deps.index.ofPlacement(space, name) : []
  const where = whereInputMoved(deps.wheres, whereKeyOf(obj), type, obj)
  return [...(where ? ownWhereKey(obj) : []), ...translate(slices)]
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
  if (ref.group === 'tenancy.kcp.io' && ref.resource === 'workspaces')
    deps.providers?.observe(event.object)
  if (ignored(ref, event.object, deps)) return []
  if (isTenancyPolicy(ref.group, ref.resource))
    return tenancyKeys(ref.resource, event.type, event.object, {
      ...deps,
      steps: {
        mailbox: MAILBOX_STEP,
        where: WHERE_STEP,
        translate: TRANSLATE_STEP,
        ...(deps.summarize ? { summarize: SUMMARIZE_STEP } : {}),
      },
      isProvider: (space) => isProvider(deps, space),
    })
  const rollouts = deps.rollouts
  const keys = [
    ...(await stepKeys(ref, event, deps)),
    ...(rollouts
      ? rolloutKeys(ref, event.type, event.object, {
          rollouts,
          mailboxesOfSpace: (space) => deps.index.ofSpace(space),
          destinationsOfSpace: (space) => deps.index.destinationsOfSpace(space),
          translate,
        })
      : []),
  ]
  const summarize = deps.summarize
  const all = summarize
    ? [
        ...keys,
        ...summarizeKeys(ref, event.type, event.object, { ...deps, summarize }),
        ...removalKeys(event.object, { index: deps.index, summarize }),
      ]
    : keys
  rememberWoken(
    all.filter((k) => k.step === TRANSLATE_STEP).map((k) => k.key),
    rvOf(event.object),
    deps.woken
  )
  return all
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
        if (!syncTargetMoved(deps.syncTargets, event.type, obj)) return []
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
      case 'edgeplacements':
        deps.placementSeen?.(event.type, obj)
        return placementKeys(event.type, obj, deps)
      case 'rollouts':
        return [] // rollout-keys.ts: its own key, and its space's mailboxes on a hold move
      case 'singleplacementslices': {
        const key = sliceWhereKey(obj)
        const own = key ? [{ step: WHERE_STEP, key }] : []
        return [...own, ...sliceKeys(event.type, obj, deps)]
      }
    }
  }
  if (ref.group === 'tenancy.kcp.io' && ref.resource === 'workspaces') {
    const mailbox = mailboxKeys(event.type, obj, deps)
    if (mailbox) return mailbox
  }
  return spaceKeys(event.type, ref, obj, deps)
}
