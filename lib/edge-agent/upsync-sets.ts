/**
 * What the SyncerConfig `the-one` asks the agent to upsync (reference §2.1, §5.3): its
 * `spec.upsync` UpsyncSets, read and matched by the one upsync rule (lib/upsync/match.ts).
 * Here the sets become list targets: resources are resolved against the EDGE's discovery at the
 * edge's preferred version, and must be listable. Never upsynced, whatever the set says: CRDs
 * ("CRDs are not upsynced"), kinds not for the edge (Events, Leases, Endpoints...), mailbox-only
 * and unsupported kinds, and the edge API itself.
 */

import { categoryOf } from '../apis/categories.ts'
import type { UpsyncSet } from '../apis/edge-v1alpha1.ts'
import { syncerConfigEntry } from '../placement/syncer-config.ts'
import { namesResource, upsyncSetsOf as setsOfSpec } from '../upsync/match.ts'
import type { DesiredCopy } from './desired-store.ts'
import type { DiscoveryIndex } from './discovery.ts'
import type { ServedResource } from './kube-client.ts'

export type UpsyncTarget = {
  served: ServedResource
  /** Some set names "*" for namespaces (or the resource is cluster-scoped): list across all. */
  allNamespaces: boolean
  namespaces: Set<string>
  sets: UpsyncSet[]
}

/** The valid UpsyncSets of the desired state's SyncerConfig `the-one` (none without one). */
export function upsyncSetsOf(copy: DesiredCopy): UpsyncSet[] {
  const e = syncerConfigEntry(copy.entries)
  return setsOfSpec(e ? copy.bodies[e.hash] : undefined)
}

function upsyncable(r: ServedResource): boolean {
  if (!r.verbs.includes('list')) return false
  const c = categoryOf(r.group, r.resource)
  return c === 'to-edge' || (r.group === '' && r.resource === 'namespaces')
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
    for (const [gr, r] of resources) {
      if (!namesResource(set, r.group, r.resource)) continue
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
