/**
 * The rollout step's keys for the relay (`<workload-space-id>/<rollout-name>`, lib/reconcile/
 * keys.ts), from an index of the Rollouts each space has, kept by Rollout events (the relay lists
 * Rollouts at every start, so the index is whole):
 * - a Rollout wakes its own key and its space's other Rollouts' (which of them governs a shared
 *   object depends on all of them) when what the step reads of it moved (a new uid, generation or
 *   deletion: never the step's own status writes, which would wake it again for ever), and the
 *   translate keys of its space's mailboxes when what translation holds by moved (its spec, as
 *   above, its revision, completed revision, or a wave's revision, cut or what it held before: a
 *   promotion, a rollback): translation then writes only the mailboxes whose content that changes;
 * - an object of a space with Rollouts whose revision input moved (the governed content: what
 *   translation reads less the status, lib/rollout/revision.ts), an EdgePlacement whose summary moved
 *   (its edges' states, and how many are at each Rollout revision: what the gate reads), and a
 *   slice of such a space (the edges of its waves), wake the Rollouts of that space;
 * - a Location wakes every Rollout (a relabel moves an edge between waves).
 * Without the memory (`seen` absent) every Rollout event counts.
 */
import { CLUSTER_ANNOTATION, type KubeObject } from '../kube/types.ts'
import { canonicalJson } from '../patch/json-values.ts'
import { rolloutKey } from '../reconcile/keys.ts'
import { revisionInput } from '../rollout/revision.ts'
import { inputMovedBy } from './event-memory.ts'

const revisionMoved = inputMovedBy(revisionInput)
const summaryMoved = inputMovedBy(edgeRevisions)

export const ROLLOUT_STEP = 'rollout'

type StepKey = { step: string; key: string }

/** Which Rollouts each space has, and what the relay last saw of each. */
export type RolloutIndex = {
  /** Rollout names by space id. */
  bySpace: Map<string, Set<string>>
  /** Rollout key -> what the step reads of it, and what translation holds by, last seen. */
  seen?: Map<string, { spec: string; hold: string }>
  /** The translate input last seen of each object of a space with Rollouts (event-memory.ts). */
  inputs?: Map<string, string>
}

export const createRolloutIndex = (): RolloutIndex => ({
  bySpace: new Map(),
  seen: new Map(),
  inputs: new Map(),
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

/**
 * A Rollout event: updates the index; answers whether the step's input moved (`own`) and whether
 * what translation holds by moved (`hold`).
 */
export function rolloutEvent(
  index: RolloutIndex,
  type: string,
  obj: KubeObject
): { own: StepKey[]; hold: boolean } {
  const space = spaceOf(obj)
  const name = obj.metadata.name
  if (!space || !name) return { own: [], hold: false }
  const key = rolloutKey(space, name)
  const names = index.bySpace.get(space) ?? new Set<string>()
  if (type === 'DELETED') {
    names.delete(name)
    if (names.size === 0) index.bySpace.delete(space)
    index.seen?.delete(key)
    return { own: keysOf(space, [name, ...names]), hold: true }
  }
  names.add(name)
  index.bySpace.set(space, names)
  const m = obj.metadata
  const now = {
    spec: `${m.uid ?? ''}/${m.generation ?? 0}/${m.deletionTimestamp ?? ''}`,
    hold: holdOf(obj),
  }
  const before = index.seen?.get(key)
  index.seen?.set(key, now)
  const counts = !before || type !== 'MODIFIED'
  return {
    own: counts || before.spec !== now.spec ? keysOf(space, [...names]) : [],
    hold: counts || before.hold !== now.hold || before.spec !== now.spec,
  }
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
  /** The translate keys of the mailboxes the slices of `space` name. */
  translateOfSpace(space: string): StepKey[]
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
      return [...own, ...(hold ? deps.translateOfSpace(space) : [])]
    }
    if (ref.resource === 'locations') return allRolloutKeys(deps.rollouts)
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
