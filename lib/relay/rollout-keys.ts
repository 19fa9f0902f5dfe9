/**
 * The rollout step's keys for the relay (`<workload-space-id>/<rollout-name>`, lib/reconcile/
 * keys.ts), from an index of the Rollouts each space has, kept by Rollout events (the relay lists
 * Rollouts at every start, so the index is whole):
 * - a Rollout wakes its own key and its space's other Rollouts' (which of them governs a shared
 *   object depends on all of them) when what the step reads of it moved (a new uid, generation or
 *   deletion: never the step's own status writes, which would wake it again for ever);
 * - it wakes the translate keys of its space's mailboxes when what translation holds by moved:
 *   all of them when it is new to the relay, deleted, or its spec moved; when only its status did
 *   (its revision, completed revision, or a wave's revision, cut or what it held before: a
 *   promotion, a rollback), only the mailboxes whose revision or place that moves
 *   (lib/rollout/moved-destinations.ts, from the status last seen, each destination's Location
 *   labels as Location events left them, and its SyncTarget uid from its mailbox name) — a wave's
 *   promotion wakes that wave's mailboxes, not the fleet's;
 * - an object of a space with Rollouts whose revision input moved (the governed content: what
 *   translation reads less the status, lib/rollout/revision.ts), an EdgePlacement whose summary moved
 *   (its edges' states, and how many are at each Rollout revision: what the gate reads), and a
 *   slice of such a space (the edges of its waves), wake the Rollouts of that space;
 * - a Location wakes every Rollout (a relabel moves an edge between waves; its mailboxes'
 *   translations are woken by event-keys.ts) and updates the labels kept of it.
 * Without the memory (`seen` absent) every Rollout event counts and wakes every mailbox.
 */
import { decodeObject } from '../apis/decode.ts'
import { RolloutSchema, type RolloutSpec, type RolloutStatus } from '../apis/edge-rollout.ts'
import type { Labels } from '../kube/label-selector.ts'
import { CLUSTER_ANNOTATION, type KubeObject } from '../kube/types.ts'
import { canonicalJson } from '../patch/json-values.ts'
import { rolloutKey, syncTargetUidOfMailbox } from '../reconcile/keys.ts'
import { movedDestinations } from '../rollout/moved-destinations.ts'
import { revisionInput } from '../rollout/revision.ts'
import { inputMovedBy } from './event-memory.ts'
import { type LocationMailbox, locationKey } from './slice-index.ts'

const revisionMoved = inputMovedBy(revisionInput)
const summaryMoved = inputMovedBy(edgeRevisions)

export const ROLLOUT_STEP = 'rollout'

type StepKey = { step: string; key: string }

/** Which Rollouts each space has, and what the relay last saw of each. */
export type RolloutIndex = {
  /** Rollout names by space id. */
  bySpace: Map<string, Set<string>>
  /**
   * Rollout key -> what the step reads of it, what translation holds by, and its status (decoded;
   * undefined when it does not decode), last seen.
   */
  seen?: Map<string, Seen>
  /** The translate input last seen of each object of a space with Rollouts (event-memory.ts). */
  inputs?: Map<string, string>
  /** Each Location's labels (`<space id>\0<name>`), as its last event had them. */
  labels?: Map<string, Labels>
}

type Seen = { spec: string; hold: string; status: RolloutStatus | undefined }

export const createRolloutIndex = (): RolloutIndex => ({
  bySpace: new Map(),
  seen: new Map(),
  inputs: new Map(),
  labels: new Map(),
})

const spaceOf = (obj: KubeObject) => obj.metadata?.annotations?.[CLUSTER_ANNOTATION] || undefined

const keysOf = (space: string, names: Iterable<string>): StepKey[] =>
  [...names].sort().map((name) => ({ step: ROLLOUT_STEP, key: rolloutKey(space, name) }))

/** The rollout keys of every Rollout of `space`. */
export function spaceRolloutKeys(index: RolloutIndex | undefined, space: string): StepKey[] {
  const names = index?.bySpace.get(space)
  return names ? keysOf(space, names) : []
}

/** The rollout keys of every Rollout of every space. */
export function allRolloutKeys(index: RolloutIndex | undefined): StepKey[] {
  if (!index) return []
  return [...index.bySpace.keys()].sort().flatMap((space) => spaceRolloutKeys(index, space))
}

function holdOf(obj: KubeObject): string {
  const s = (obj.status ?? {}) as {
    revision?: unknown
    completedRevision?: unknown
    waves?: { name?: unknown; revision?: unknown; cut?: unknown; from?: unknown }[]
  }
  const waves = Array.isArray(s.waves)
    ? s.waves.map((w) => [w?.name, w?.revision, w?.cut, w?.from])
    : []
  return canonicalJson([s.revision, s.completedRevision, waves])
}

/** What translation holds by moved, for whom: no one, every mailbox, or those a status moves. */
export type HoldMove =
  | { kind: 'none' }
  | { kind: 'all' }
  | { kind: 'status'; spec: RolloutSpec; before: RolloutStatus; after: RolloutStatus }

const decoded = (obj: KubeObject) => {
  const d = decodeObject(RolloutSchema, obj)
  return d.ok ? d.value : undefined
}

/**
 * A Rollout event: updates the index; answers whether the step's input moved (`own`) and what
 * translation holds by moved (`hold`).
 */
export function rolloutEvent(
  index: RolloutIndex,
  type: string,
  obj: KubeObject
): { own: StepKey[]; hold: HoldMove } {
  const space = spaceOf(obj)
  const name = obj.metadata.name
  if (!space || !name) return { own: [], hold: { kind: 'none' } }
  const key = rolloutKey(space, name)
  const names = index.bySpace.get(space) ?? new Set<string>()
  if (type === 'DELETED') {
    names.delete(name)
    if (names.size === 0) index.bySpace.delete(space)
    index.seen?.delete(key)
    return { own: keysOf(space, [name, ...names]), hold: { kind: 'all' } }
  }
  names.add(name)
  index.bySpace.set(space, names)
  const m = obj.metadata
  const value = decoded(obj)
  const now: Seen = {
    spec: `${m.uid ?? ''}/${m.generation ?? 0}/${m.deletionTimestamp ?? ''}`,
    hold: holdOf(obj),
    status: value?.status,
  }
  const before = index.seen?.get(key)
  index.seen?.set(key, now)
  const counts = !before || type !== 'MODIFIED'
  const own = counts || before.spec !== now.spec ? keysOf(space, [...names]) : []
  if (counts || before.spec !== now.spec) return { own, hold: { kind: 'all' } }
  if (before.hold === now.hold) return { own, hold: { kind: 'none' } }
  if (!value || !before.status || !now.status) return { own, hold: { kind: 'all' } }
  return {
    own,
    hold: { kind: 'status', spec: value.spec, before: before.status, after: now.status },
  }
}

/** A Location event: the labels kept of it. */
function locationEvent(index: RolloutIndex, type: string, obj: KubeObject) {
  const space = spaceOf(obj)
  const name = obj.metadata.name
  if (!index.labels || !space || !name) return
  if (type === 'DELETED') index.labels.delete(locationKey(space, name))
  else index.labels.set(locationKey(space, name), { ...(obj.metadata.labels ?? {}) })
}

/**
 * The mailboxes of `space` a status move reaches: those whose standing it moves, and any the
 * slices name without a Location (whose standing cannot be told).
 */
function movedMailboxes(
  index: RolloutIndex,
  move: Extract<HoldMove, { kind: 'status' }>,
  at: { mailboxes: string[]; destinations: LocationMailbox[] }
): string[] {
  const through = new Set(at.destinations.map((d) => d.mailbox))
  const unplaced = at.mailboxes.filter((m) => !through.has(m))
  const destinations = at.destinations.map((d) => ({
    mailbox: d.mailbox,
    syncTargetUid: syncTargetUidOfMailbox(d.mailbox) ?? '',
    labels: index.labels?.get(locationKey(d.cluster, d.locationName)) ?? null,
  }))
  return [...unplaced, ...movedDestinations(move.spec, move.before, move.after, destinations)]
}

/**
 * What the gate reads of an EdgePlacement: its summary's count of destinations per Rollout and
 * revision (status.summary.rollouts, written by the summarize step as its edges move revision).
 */
function edgeRevisions(obj: KubeObject): KubeObject {
  const status = obj.status as { summary?: { rollouts?: unknown } } | undefined
  return {
    apiVersion: '',
    kind: '',
    metadata: {},
    rollouts: status?.summary?.rollouts ?? null,
  } as unknown as KubeObject
}

export type RolloutKeysDeps = {
  rollouts: RolloutIndex
  /** The mailboxes the slices of `space` name. */
  mailboxesOfSpace(space: string): string[]
  /** The (Location, mailbox) pairs the slices of `space` name. */
  destinationsOfSpace(space: string): LocationMailbox[]
  /** The translate keys of some mailboxes. */
  translate(mailboxes: Iterable<string>): StepKey[]
}

/** The translate keys a Rollout's hold move wakes. */
function holdKeys(space: string, hold: HoldMove, deps: RolloutKeysDeps): StepKey[] {
  if (hold.kind === 'none') return []
  const mailboxes = deps.mailboxesOfSpace(space)
  if (hold.kind === 'all') return deps.translate(mailboxes)
  const destinations = deps.destinationsOfSpace(space)
  return deps.translate(movedMailboxes(deps.rollouts, hold, { mailboxes, destinations }))
}

/** The keys an event wakes for the rollout step (and translation, on a Rollout's hold). */
export function rolloutKeys(
  ref: { group: string; resource: string },
  type: string,
  obj: KubeObject,
  deps: RolloutKeysDeps
): StepKey[] {
  const space = spaceOf(obj)
  if (!space) return []
  if (ref.group === 'edge.kcp.io') {
    if (ref.resource === 'rollouts') {
      const { own, hold } = rolloutEvent(deps.rollouts, type, obj)
      return [...own, ...holdKeys(space, hold, deps)]
    }
    if (ref.resource === 'locations') {
      locationEvent(deps.rollouts, type, obj)
      return allRolloutKeys(deps.rollouts)
    }
    if (ref.resource === 'singleplacementslices') return spaceRolloutKeys(deps.rollouts, space)
  }
  if (!deps.rollouts.bySpace.has(space)) return []
  if (ref.group === 'edge.kcp.io' && ref.resource === 'edgeplacements')
    return summaryMoved(deps.rollouts.inputs, type, 'edgeplacements', obj)
      ? spaceRolloutKeys(deps.rollouts, space)
      : []
  const resource = `${ref.group}/${ref.resource}`
  return revisionMoved(deps.rollouts.inputs, type, resource, obj)
    ? spaceRolloutKeys(deps.rollouts, space)
    : []
}
