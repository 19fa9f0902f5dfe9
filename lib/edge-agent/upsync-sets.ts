/**
 * What the SyncerConfig `the-one` asks the agent to upsync (reference §2.1, §5.3): its
 * `spec.upsync` UpsyncSets, each an API group ("*" = any, as the center's lib/edge/upsync-match.ts
 * reads it), resources, namespaces and names, where "*" means all and an empty list means none (a namespaced resource needs namespaces listed; namespaces do
 * not apply to cluster-scoped ones). Resources are resolved against the EDGE's discovery at the
 * edge's preferred version, and must be listable. Never upsynced, whatever the set says: CRDs
 * ("CRDs are not upsynced"), kinds not for the edge (Events, Leases, Endpoints...), mailbox-only
 * and unsupported kinds, and the edge API itself.
 */

import { categoryOf, EDGE_GROUP } from '../apis/categories.ts'
import { type UpsyncSet, UpsyncSetSchema } from '../apis/edge-v1alpha1.ts'
import type { DesiredCopy } from './desired-store.ts'
import type { DiscoveryIndex } from './discovery.ts'
import type { ServedResource } from './kube-client.ts'
import { isRecord } from './refs.ts'

export const SYNCER_CONFIG = { group: EDGE_GROUP, resource: 'syncerconfigs', name: 'the-one' }

export type UpsyncTarget = {
  served: ServedResource
  /** Some set names "*" for namespaces (or the resource is cluster-scoped): list across all. */
  allNamespaces: boolean
  namespaces: Set<string>
  sets: UpsyncSet[]
}

/** The valid UpsyncSets of the desired state's SyncerConfig `the-one` (none without one). */
export function upsyncSetsOf(copy: DesiredCopy): UpsyncSet[] {
  const e = copy.entries.find(
    (x) =>
      x.group === SYNCER_CONFIG.group &&
      x.resource === SYNCER_CONFIG.resource &&
      x.name === SYNCER_CONFIG.name
  )
  const body = e ? copy.bodies[e.hash] : undefined
  const spec = body && isRecord(body.spec) ? body.spec : {}
  const raw = Array.isArray(spec.upsync) ? spec.upsync : []
  return raw.flatMap((s) => {
    const parsed = UpsyncSetSchema.safeParse(s)
    return parsed.success ? [parsed.data] : []
  })
}

const listed = (list: readonly string[] | undefined, value: string) =>
  !!list && (list.includes('*') || list.includes(value))

function upsyncable(r: ServedResource): boolean {
  if (!r.verbs.includes('list')) return false
  const c = categoryOf(r.group, r.resource)
  return c === 'to-edge' || (r.group === '' && r.resource === 'namespaces')
}

/** True when `set` selects the object (its group and resource already matched). */
export function selects(set: UpsyncSet, namespaced: boolean, namespace: string, name: string) {
  if (!listed(set.names, name)) return false
  return !namespaced || listed(set.namespaces, namespace)
}

function addSet(t: UpsyncTarget, set: UpsyncSet): void {
  t.sets.push(set)
  if (!t.served.namespaced) return
  if (set.namespaces?.includes('*')) t.allNamespaces = true
  else for (const ns of set.namespaces ?? []) t.namespaces.add(ns)
}

/** One target per served group/resource some set names, with the namespaces to list. */
export function upsyncTargets(sets: readonly UpsyncSet[], d: DiscoveryIndex): UpsyncTarget[] {
  const out = new Map<string, UpsyncTarget>()
  const resources = new Map(d.all.map((r) => [`${r.group}/${r.resource}`, r]))
  for (const set of sets) {
    const group = set.apiGroup ?? ''
    for (const [gr, r] of resources) {
      if ((group !== '*' && r.group !== group) || !listed(set.resources, r.resource)) continue
      const served = d.preferred(r.group, r.resource)
      if (!served || !upsyncable(served)) continue
      const t = out.get(gr) ?? {
        served,
        allNamespaces: !served.namespaced,
        namespaces: new Set<string>(),
        sets: [],
      }
      addSet(t, set)
      out.set(gr, t)
    }
  }
  return [...out.values()].filter((t) => t.allNamespaces || t.namespaces.size > 0)
}
