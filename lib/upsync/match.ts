/**
 * The one reading of UpsyncSets (reference §2.1 `UpsyncSet`, §2.3 SyncerConfig `spec.upsync`),
 * used by the edge API (which upsynced objects a mailbox accepts), the edge agent (which edge
 * objects it lists and reports) and the summarize step (which mailbox objects a placement counts).
 * The sets are an object's `spec.upsync` (an EdgePlacement's own, or the SyncerConfig `the-one`'s,
 * the union of the placements'); entries that are not valid UpsyncSets are ignored. A set selects
 * an object when its apiGroup (absent or '' = core; "*" = any group) is the object's group and each
 * of its lists (resources, names, and namespaces for a namespaced object) holds the object's value
 * or "*"; an absent or empty list selects nothing. The namespaces list is not consulted for
 * cluster-scoped objects. An object is upsyncable when any set selects it. No set — `"*"`
 * everywhere included — names a control kind (lib/tenancy/control-kinds.ts: placements, slices,
 * SyncTargets, Locations, Customizers, Summarizers, SyncerConfigs, Workspaces, Tokens, CRDs...):
 * what an edge reports is data, and a mailbox is never a control plane. Pure.
 */
import { type UpsyncSet, UpsyncSetSchema } from '../apis/edge-v1alpha1.ts'
import { isJsonObject } from '../patch/json-values.ts'
import { isControlResource } from '../tenancy/control-kinds.ts'

export type UpsyncCandidate = {
  group: string
  resource: string
  /** '' for cluster-scoped objects. */
  namespace: string
  name: string
  namespaced: boolean
}

/** The valid UpsyncSets of an object's `spec.upsync` (none when the object or list is absent). */
export function upsyncSetsOf(obj: Readonly<Record<string, unknown>> | undefined): UpsyncSet[] {
  const spec = obj?.spec
  const raw = isJsonObject(spec) ? spec.upsync : undefined
  if (!Array.isArray(raw)) return []
  return raw.flatMap((set) => {
    const parsed = UpsyncSetSchema.safeParse(set)
    return parsed.success ? [parsed.data] : []
  })
}

/** Whether the list holds `value` or "*" (an absent or empty list holds nothing). */
const holds = (list: readonly string[] | undefined, value: string) =>
  (list ?? []).some((x) => x === '*' || x === value)

/** Whether no upsync set can ever select objects of this resource (a control kind). */
export const neverUpsynced = (group: string, resource: string): boolean =>
  isControlResource(group, resource)

/** Whether the set names this group and resource (the lists to read for it); never a control kind. */
export function namesResource(set: UpsyncSet, group: string, resource: string): boolean {
  if (neverUpsynced(group, resource)) return false
  const setGroup = set.apiGroup ?? ''
  return (setGroup === '*' || setGroup === group) && holds(set.resources, resource)
}

/** Whether the set selects the object by name (and namespace, for a namespaced one). */
export function selectsNamed(
  set: Pick<UpsyncSet, 'names' | 'namespaces'>,
  namespaced: boolean,
  namespace: string,
  name: string
): boolean {
  if (!holds(set.names, name)) return false
  return !namespaced || holds(set.namespaces, namespace)
}

export function upsyncSelects(set: UpsyncSet, c: UpsyncCandidate): boolean {
  return (
    namesResource(set, c.group, c.resource) && selectsNamed(set, c.namespaced, c.namespace, c.name)
  )
}

export function isUpsyncable(sets: readonly UpsyncSet[], c: UpsyncCandidate): boolean {
  return sets.some((set) => upsyncSelects(set, c))
}
