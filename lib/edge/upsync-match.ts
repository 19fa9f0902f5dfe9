/**
 * Which edge objects may be upsynced into a mailbox: those an UpsyncSet of the mailbox's
 * SyncerConfig `the-one` selects (spec.upsync, the union of the EdgePlacements' sets). A set
 * selects an object when its apiGroup ('' = core; "*" = any) is the object's group and each of its
 * lists (resources, namespaces, names) holds the object's value or "*"; an empty or absent list
 * selects nothing, and the namespaces list is not consulted for cluster-scoped objects. Sets that
 * are not UpsyncSets are ignored. Pure.
 */
import { type UpsyncSet, UpsyncSetSchema } from '../apis/edge-v1alpha1.ts'
import type { JsonValue, KubeObject } from '../kube/types.ts'
import { isJsonObject } from '../patch/json-values.ts'

export type UpsyncCandidate = {
  group: string
  resource: string
  /** '' for cluster-scoped objects. */
  namespace: string
  name: string
  namespaced: boolean
}

/** The valid UpsyncSets of a SyncerConfig (none when it is absent). */
export function upsyncSetsOf(syncerConfig: KubeObject | undefined): UpsyncSet[] {
  const spec = syncerConfig?.spec as JsonValue | undefined
  const raw = isJsonObject(spec) ? (spec.upsync ?? []) : []
  if (!Array.isArray(raw)) return []
  return raw.flatMap((set) => {
    const parsed = UpsyncSetSchema.safeParse(set)
    return parsed.success ? [parsed.data] : []
  })
}

const holds = (list: readonly string[] | undefined, value: string) =>
  (list ?? []).some((x) => x === '*' || x === value)

export function upsyncSelects(set: UpsyncSet, c: UpsyncCandidate): boolean {
  const group = set.apiGroup ?? ''
  if (group !== '*' && group !== c.group) return false
  if (!holds(set.resources, c.resource) || !holds(set.names, c.name)) return false
  return !c.namespaced || holds(set.namespaces, c.namespace)
}

export function isUpsyncable(sets: readonly UpsyncSet[], c: UpsyncCandidate): boolean {
  return sets.some((set) => upsyncSelects(set, c))
}
