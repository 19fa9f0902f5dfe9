/**
 * Applies the planned entries (selection.ts) to the edge cluster, phase by phase (Namespaces,
 * CRDs — then discovery is read again if any CRD changed — and the rest). Per entry: the resource
 * must be served at the edge at the entry's version and scope, else an ApplyFailed problem. Then,
 * by the live object and the ownership record (ownership.ts):
 * - absent → created by server-side apply after a pending entry is saved (also when the record
 *   held it: an owned object deleted at the edge is created again, and a crash before its new uid
 *   is recorded must not make it foreign);
 * - present but not in the record → a ForeignObject problem, left alone (unless the record has a
 *   pending create for it and it carries this agent's marker, marker.ts: a create whose uid the
 *   agent did not get to record before a crash, adopted);
 * - present with another uid than recorded → ours is gone and this one is foreign;
 * - ours → re-applied when the desired body changed or its owned fields drifted
 *   (apply-config.ts), else left as it is; a create-only entry's (create-only.ts) never is.
 * A create that lands on an object someone else made in the meantime (other field managers on
 * it) is not recorded as ours. The record is saved after each phase that changed it. Reads are the
 * agent's; a write of an entry naming tenants is made as each of them (tenant-binder.ts), so the
 * edge's RBAC refuses what a tenant may not do, reported as ApplyFailed with the edge's message.
 */
import type { Problem } from '../edge/protocol.ts'
import type { KubeObject } from '../kube/types.ts'
import type { Logger } from '../log.ts'
import { mapLimit } from '../map-limit.ts'
import { applyConfigOf, viewHash } from './apply-config.ts'
import { heldRecord, isCreateOnly } from './create-only.ts'
import type { DiscoveryIndex } from './discovery.ts'
import type { EdgeKube } from './kube-client.ts'
import { FIELD_MANAGER, markedBy, ownershipOf } from './marker.ts'
import { type Owned, type OwnedRecord, withGeneration } from './ownership.ts'
import { isRecord, refOf } from './refs.ts'
import type { Planned } from './selection.ts'
import type { TenantBinder } from './tenant-binder.ts'

export { FIELD_MANAGER }

const CONCURRENCY = 8

export type ApplyDeps = {
  kube: EdgeKube
  owned: Owned
  saveOwned: () => Promise<void>
  /** The agent's name in its marker (marker.ts). */
  identity: string
  discover: () => Promise<DiscoveryIndex>
  /** resourceVersion at which each owned object was last found in line (memory only). */
  checked: Map<string, string>
  now: () => Date
  log: Logger
  /** The tenant identities (tenant-binder.ts); absent: every entry is applied as the agent. */
  binder?: TenantBinder
}

export type LiveOwned = { planned: Planned; obj: KubeObject; record: OwnedRecord }

export type ApplyResult = {
  created: number
  updated: number
  unchanged: number
  problems: Problem[]
  live: LiveOwned[]
  /** Discovery as of the end of the apply (read again after CRD changes). */
  discovery: DiscoveryIndex
}

type Action = { p: Planned; config: KubeObject; create: boolean; drift: boolean }

export const problemOf = (p: Planned, reason: Problem['reason'], message: string): Problem => ({
  ...refOf(p.entry),
  reason,
  message: message.slice(0, 2000),
})

const errText = (e: unknown) => (e instanceof Error ? e.message : String(e))

const crdGroupOf = (p: Planned): string | undefined =>
  p.phase === 1 && isRecord(p.body.spec) && typeof p.body.spec.group === 'string'
    ? p.body.spec.group
    : undefined

export async function applyPlanned(
  deps: ApplyDeps,
  planned: readonly Planned[],
  initial: DiscoveryIndex
): Promise<ApplyResult> {
  const out: ApplyResult = {
    created: 0,
    updated: 0,
    unchanged: 0,
    problems: [],
    live: [],
    discovery: initial,
  }
  for (const phase of [0, 1, 2] as const) {
    await deps.binder?.beforePhase(phase, planned)
    const items = planned.filter((p) => p.phase === phase)
    if (items.length === 0) continue
    const changed = await applyPhase(deps, items, out.discovery, out)
    if (phase === 1 && changed) out.discovery = await deps.discover()
  }
  return out
}

type Read = { p: Planned; config?: KubeObject; live?: KubeObject; error?: string }

async function readLive(deps: ApplyDeps, p: Planned, discovery: DiscoveryIndex): Promise<Read> {
  const served = discovery.find(p.entry.group, p.entry.version, p.entry.resource)
  if (!served) return { p, error: 'the resource is not served by the edge cluster' }
  if (served.namespaced !== (p.entry.namespace !== ''))
    return { p, error: `the edge cluster serves ${p.entry.resource} with another scope` }
  try {
    const config = applyConfigOf(p.body, { ...p.entry, kind: served.kind }, deps.identity)
    const live = await deps.kube.get(refOf(p.entry))
    return live ? { p, config, live } : { p, config }
  } catch (e) {
    return { p, error: errText(e) }
  }
}

const FOREIGN =
  'an object with this name exists at the edge and was not created by the agent: left alone'

/**
 * What to do with one entry given its live object: an action, or nothing (unchanged, or a
 * problem recorded). Marks pending creates in the record; true in `changed` when it did.
 */
function decide(deps: ApplyDeps, r: Read, out: ApplyResult, changed: { v: boolean }) {
  const { p, config, live } = r
  if (r.error !== undefined || !config) {
    out.problems.push(problemOf(p, 'ApplyFailed', r.error ?? 'no configuration'))
    return undefined
  }
  const rec = deps.owned.get(p.key)
  if (!live) {
    if (!rec || rec.uid !== undefined) {
      const { uid: _gone, ...kept } = rec ?? { hash: '', view: '', generations: [] }
      deps.owned.set(p.key, { ...kept, ...refOf(p.entry), pendingSince: deps.now().toISOString() })
      changed.v = true
    }
    return { p, config, create: true, drift: rec?.uid !== undefined }
  }
  const marked = isCreateOnly(p.body) && markedBy(live, deps.identity)
  const held = isCreateOnly(p.body) ? heldRecord(p, live, rec, marked) : undefined
  if (held) {
    if (held !== rec) {
      deps.owned.set(p.key, held)
      changed.v = true
    }
    deps.checked.set(p.key, live.metadata.resourceVersion ?? '')
    out.unchanged += 1
    out.live.push({ planned: p, obj: live, record: held })
    return undefined
  }
  const whose = ownershipOf(rec, live, deps.identity)
  const adopt = whose === 'adopt'
  if (!rec || whose === 'foreign') {
    if (rec) {
      deps.owned.delete(p.key)
      changed.v = true
    }
    out.problems.push(problemOf(p, 'ForeignObject', FOREIGN))
    return undefined
  }
  const rv = live.metadata.resourceVersion ?? ''
  const drift = deps.checked.get(p.key) !== rv && viewHash(live, config) !== rec.view
  if (adopt || rec.hash !== p.entry.hash || drift)
    return { p, config, create: false, drift: drift && rec.hash === p.entry.hash }
  deps.checked.set(p.key, rv)
  out.unchanged += 1
  out.live.push({ planned: p, obj: live, record: sameContent(deps, p, rec, changed) })
  return undefined
}

/**
 * A new center generation with the content already applied (a change and its revert): the edge
 * object reflects it as it is, at the edge generation of the last apply.
 */
function sameContent(deps: ApplyDeps, p: Planned, rec: OwnedRecord, changed: { v: boolean }) {
  const last = rec.generations[rec.generations.length - 1]
  if (!last || last.center === p.entry.generation) return rec
  const next = {
    ...rec,
    generations: withGeneration(rec.generations, last.edge, p.entry.generation),
  }
  deps.owned.set(p.key, next)
  changed.v = true
  return next
}

/** Applies one phase; true when it created or updated something. */
async function applyPhase(
  deps: ApplyDeps,
  items: readonly Planned[],
  discovery: DiscoveryIndex,
  out: ApplyResult
): Promise<boolean> {
  const reads = await mapLimit(items, CONCURRENCY, (p) => readLive(deps, p, discovery))
  const changed = { v: false }
  const actions: Action[] = []
  for (const r of reads) {
    const a = decide(deps, r, out, changed)
    if (a) actions.push(a)
  }
  if (changed.v) await deps.saveOwned()
  await mapLimit(actions, CONCURRENCY, (a) => applyOne(deps, a, out))
  if (actions.length > 0 || changed.v) await deps.saveOwned()
  return actions.length > 0
}

async function applyOne(deps: ApplyDeps, a: Action, out: ApplyResult): Promise<void> {
  const { p } = a
  let obj: KubeObject | undefined
  try {
    // As each tenant in turn: a copy several spaces made is written only if each may write it.
    for (const kube of deps.binder?.clientsFor(p) ?? [deps.kube])
      obj = await kube.apply(refOf(p.entry), a.config, { fieldManager: FIELD_MANAGER, force: true })
    if (!obj) return
  } catch (e) {
    out.problems.push(problemOf(p, 'ApplyFailed', errText(e)))
    return
  }
  const others = (obj.metadata.managedFields ?? []).filter((f) => f.manager !== FIELD_MANAGER)
  if (a.create && others.length > 0) {
    deps.owned.delete(p.key)
    out.problems.push(
      problemOf(p, 'ForeignObject', 'the object appeared at the edge while the agent created it')
    )
    return
  }
  const prev = deps.owned.get(p.key)
  const record: OwnedRecord = {
    ...refOf(p.entry),
    uid: obj.metadata.uid ?? '',
    hash: p.entry.hash,
    view: viewHash(obj, a.config),
    generations: withGeneration(
      prev?.generations ?? [],
      obj.metadata.generation ?? 0,
      p.entry.generation
    ),
  }
  const crdGroup = crdGroupOf(p)
  if (crdGroup !== undefined) record.crdGroup = crdGroup
  if (isCreateOnly(p.body)) record.createOnly = true
  deps.owned.set(p.key, record)
  deps.checked.set(p.key, obj.metadata.resourceVersion ?? '')
  if (a.create) out.created += 1
  else out.updated += 1
  if (a.drift) deps.log.info('drift reverted', { key: p.key })
  out.live.push({ planned: p, obj, record })
}
