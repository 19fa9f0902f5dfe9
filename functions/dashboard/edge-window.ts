/**
 * The edges (columns) a dashboard page shows, and what it knows of each: its Location's labels,
 * when its agent was last heard and whether it is stale by the staleness rule the hub is configured
 * with (lib/summarize/liveness.ts) — read for the page only. An inventory's
 * SyncTargets and Locations are read by name (one batched read each per inventory space) and its
 * leases by uid (one batched key-value read), so a page of 50 edges out of 10,000 reads 50 of
 * each, never the whole inventory. The result also serves as the summarize reads' inventory for
 * those edges (observe.ts asks it for heartbeats), which is why it has that shape. Labels of an
 * inventory space the principal cannot see are not shown.
 */
import type { LocationObject, SyncTargetObject } from '../../lib/apis/edge-objects.ts'
import { LOCATIONS, SYNC_TARGETS } from '../../lib/apis/gvr.ts'
import { maySee } from '../../lib/auth/tokens.ts'
import { leaseNamespace, renewedAtOf } from '../../lib/edge/lease.ts'
import { mapLimit } from '../../lib/map-limit.ts'
import { type Destination, mailboxOfDestination } from '../../lib/placement/destinations.ts'
import { isLive, livenessOf } from '../../lib/summarize/liveness.ts'
import { heardAt, type Inventory } from '../reconcile-summarize/reads.ts'
import type { View } from './view.ts'

/** Where one edge stands under one Rollout: its wave (null: none takes it) and its due revision. */
export type EdgeWave = { wave: string | null; due?: number }

/** One edge as the dashboard shows it (the API contract's edge item). */
export type EdgeItem = {
  key: string
  cluster: string
  inventory: string
  syncTarget: string
  uid: string
  location: string
  labels: Record<string, string>
  lastSeen: number | null
  stale: boolean
  /** The matrix's, with Rollouts in the space: the edge's wave under each (rollouts.ts). */
  rollouts?: Record<string, EdgeWave>
}

/** The inventory of `cluster` restricted to the given destinations. */
async function windowInventory(
  view: View,
  cluster: string,
  dests: readonly Destination[]
): Promise<Inventory> {
  const names = (f: (d: Destination) => string) => [...new Set(dests.map(f))]
  const [sts, locs, leases] = await Promise.all([
    view.client.getMany(
      cluster,
      SYNC_TARGETS,
      names((d) => d.syncTargetName)
    ),
    view.client.getMany(
      cluster,
      LOCATIONS,
      names((d) => d.locationName)
    ),
    view.hub.kv.getMany(
      leaseNamespace(cluster),
      names((d) => d.syncTargetUID)
    ),
  ])
  return {
    syncTargets: new Map(
      [...sts.values()].map((o) => [o.metadata.uid ?? '', o as SyncTargetObject])
    ),
    locations: new Map([...locs.values()].map((o) => [o.metadata.name ?? '', o as LocationObject])),
    leases: new Map([...leases].map(([uid, e]) => [uid, renewedAtOf(e.value)])),
  }
}

export type EdgeWindow = {
  items: EdgeItem[]
  /** The window's inventories by inventory space id (observe.ts's `reads.inventory`). */
  inventory(cluster: string): Promise<Inventory>
}

/** The edge items of `dests` (one per mailbox, in the given order) and their inventories. */
export async function edgeWindow(view: View, dests: readonly Destination[]): Promise<EdgeWindow> {
  const byCluster = new Map<string, Destination[]>()
  for (const d of dests) {
    const list = byCluster.get(d.cluster)
    if (list) list.push(d)
    else byCluster.set(d.cluster, [d])
  }
  const inventories = new Map(
    await mapLimit([...byCluster], 4, async ([cluster, list]) => {
      const [inv, path] = await Promise.all([
        windowInventory(view, cluster, list),
        view.pathOf(cluster),
      ])
      return [cluster, { inv, path }] as const
    })
  )
  const items = dests.map((d): EdgeItem => {
    const at = inventories.get(d.cluster)
    const beat = heardAt(at?.inv, d.syncTargetUID)
    const visible = !!at && maySee(view.principal, at.path)
    const labels = visible ? (at.inv.locations.get(d.locationName)?.metadata.labels ?? {}) : {}
    return {
      key: mailboxOfDestination(d),
      cluster: d.cluster,
      inventory: at?.path ?? d.cluster,
      syncTarget: d.syncTargetName,
      uid: d.syncTargetUID,
      location: d.locationName,
      labels,
      lastSeen: beat ?? null,
      stale: !isLive(beat, view.nowMs, livenessOf(view.hub).staleAfterMs),
    }
  })
  const empty: Inventory = { syncTargets: new Map(), locations: new Map(), leases: new Map() }
  return { items, inventory: async (c) => inventories.get(c)?.inv ?? empty }
}
