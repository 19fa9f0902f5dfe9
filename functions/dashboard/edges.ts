/**
 * `GET /ui/api/edges`: every SyncTarget the principal can see (all of them for an admin; else those
 * of the inventory spaces its token reaches; a SyncTarget outside an inventory space is no edge,
 * lib/tenancy/policy.ts), by name then inventory, a page at a time: its labels, the Locations that
 * select it, when its agent was last heard and whether that is stale by the hub's staleness rule
 * (lib/summarize/liveness.ts; never heard: stale, `lastSeen` null; the answer's `staleAfterMs` is
 * the rule's threshold, for the page's own wording), what its agent last said of itself with a
 * heartbeat (lib/edge/lease.ts): version, poll interval, poll mode (`held` or `plain`), the hold it
 * asks and when its last poll was answered (`lastPoll`, epoch ms by the agent's clock; null each
 * from agents that do not say), how many objects its mailbox holds, and the copies there the
 * session may see counted by the summarize step's states with the worst of them (edge-copies.ts),
 * so an edge with a failed copy reads failed. `labels` filters on the SyncTarget's labels, `stale`
 * keeps stale edges only. The SyncTargets and the leases are read whole (one list, one key-value
 * Query per inventory space); the Locations, mailboxes and copy states only for the page's edges.
 * `edgeItems` is also the edge panel's (edge-detail.ts).
 */
import type { LocationObject, SyncTargetObject } from '../../lib/apis/edge-objects.ts'
import { LOCATIONS, SYNC_TARGETS } from '../../lib/apis/gvr.ts'
import { maySee } from '../../lib/auth/tokens.ts'
import { type EdgeLease, edgeRecordsOf } from '../../lib/edge/lease.ts'
import { isNotFound } from '../../lib/errors.ts'
import {
  labelSelectorRequirements,
  matchesRequirements,
  parseLabelSelector,
} from '../../lib/kube/label-selector.ts'
import { CLUSTER_ANNOTATION } from '../../lib/kube/types.ts'
import { mapLimit } from '../../lib/map-limit.ts'
import { labelIndex } from '../../lib/placement/label-index.ts'
import { mailboxName } from '../../lib/reconcile/keys.ts'
import { isLive, lastHeard, livenessOf } from '../../lib/summarize/liveness.ts'
import { loadTenancy } from '../../lib/tenancy/load.ts'
import { heldCopies, tally } from './edge-copies.ts'
import type { View } from './view.ts'

export type EdgesQuery = { offset: number; limit: number; labels?: string; stale: boolean }

export type Row = {
  st: SyncTargetObject
  cluster: string
  path: string
  lastSeen: number | undefined
  lease: EdgeLease | undefined
}

const clusterOf = (o: { metadata: { annotations?: Record<string, string> } }) =>
  o.metadata.annotations?.[CLUSTER_ANNOTATION] ?? ''

async function visibleRows(view: View): Promise<Row[]> {
  const all = (await view.client.list('*', SYNC_TARGETS)).filter(
    (o) => !o.metadata.deletionTimestamp && clusterOf(o)
  ) as SyncTargetObject[]
  const clusters = [...new Set(all.map(clusterOf))]
  const policy = await loadTenancy(view.client)
  const info = new Map(
    await mapLimit(clusters, 4, async (c) => {
      const path = await view.pathOf(c)
      const visible = maySee(view.principal, path) && policy.isInventory(path)
      return [
        c,
        {
          path,
          visible,
          leases: visible ? await edgeRecordsOf(view.hub.kv, c) : new Map<string, EdgeLease>(),
        },
      ] as const
    })
  )
  const rows: Row[] = []
  for (const st of all) {
    const c = info.get(clusterOf(st))
    if (!c?.visible) continue
    const lease = c.leases.get(st.metadata.uid ?? '')
    const lastSeen = lastHeard(st, lease?.renewedAt)
    rows.push({ st, cluster: clusterOf(st), path: c.path, lastSeen, lease })
  }
  return rows.sort(
    (a, b) =>
      (a.st.metadata.name ?? '').localeCompare(b.st.metadata.name ?? '') ||
      a.path.localeCompare(b.path)
  )
}

/** The Locations selecting each of the page's SyncTargets (one Location list per inventory). */
async function locationsOf(view: View, page: Row[]) {
  const out = new Map<SyncTargetObject, { name: string; labels: Record<string, string> }[]>()
  for (const cluster of new Set(page.map((r) => r.cluster))) {
    const mine = page.filter((r) => r.cluster === cluster).map((r) => r.st)
    const index = labelIndex(mine)
    let locations: LocationObject[] = []
    try {
      locations = (await view.client.list(cluster, LOCATIONS)) as LocationObject[]
    } catch (e) {
      if (!isNotFound(e)) throw e
    }
    for (const loc of locations) {
      const sel = loc.spec?.instanceSelector
      const reqs =
        sel && !loc.metadata.deletionTimestamp ? labelSelectorRequirements(sel) : undefined
      if (!reqs) continue
      for (const st of index.candidates(reqs)) {
        if (!matchesRequirements(st.metadata.labels, reqs)) continue
        const list = out.get(st) ?? []
        list.push({ name: loc.metadata.name ?? '', labels: loc.metadata.labels ?? {} })
        out.set(st, list)
      }
    }
  }
  return out
}

/** When the agent's last poll was answered, epoch ms (null: it did not say). */
const lastPollOf = (lease: EdgeLease | undefined) => {
  const ms = lease?.lastPollAt ? Date.parse(lease.lastPollAt) : Number.NaN
  return Number.isFinite(ms) ? ms : null
}

/** Whether the row's edge is stale now (its agent not heard from lately). */
export const isStaleRow = (view: View, r: Row) =>
  !isLive(r.lastSeen, view.nowMs, livenessOf(view.hub).staleAfterMs)

/** The edge items of `page`: what each row shows, with the copies its mailbox holds by state. */
export async function edgeItems(view: View, page: Row[]) {
  const locations = await locationsOf(view, page)
  const keyOf = (r: Row) => mailboxName(r.cluster, r.st.metadata.uid ?? '')
  const held = await heldCopies(
    view,
    page.map((r) => ({ key: keyOf(r), live: !isStaleRow(view, r), beatAt: r.lastSeen }))
  )
  const items = await mapLimit(page, 6, async (r) => {
    const key = keyOf(r)
    const mailbox = await view.reads.mailbox(key)
    const copies = held.get(key) ?? []
    return {
      item: {
        key,
        cluster: r.cluster,
        inventory: r.path,
        syncTarget: r.st.metadata.name ?? '',
        uid: r.st.metadata.uid ?? '',
        labels: r.st.metadata.labels ?? {},
        locations: locations.get(r.st) ?? [],
        lastSeen: r.lastSeen ?? null,
        stale: isStaleRow(view, r),
        agentVersion: r.lease?.agentVersion ?? null,
        pollIntervalSeconds: r.lease?.pollIntervalSeconds ?? null,
        pollMode: r.lease?.pollMode ?? null,
        holdSeconds: r.lease?.holdSeconds ?? null,
        lastPoll: lastPollOf(r.lease),
        holds: mailbox ? mailbox.entries.size : null,
        ...tally(copies),
      },
      copies,
    }
  })
  return items
}

export async function edgesOf(view: View, q: EdgesQuery) {
  let rows = await visibleRows(view)
  if (q.labels) {
    const matches = parseLabelSelector(q.labels)
    rows = rows.filter((r) => matches(r.st.metadata.labels ?? {}))
  }
  const { staleAfterMs } = livenessOf(view.hub)
  if (q.stale) rows = rows.filter((r) => isStaleRow(view, r))
  const page = rows.slice(q.offset, q.offset + q.limit)
  const items = (await edgeItems(view, page)).map((x) => x.item)
  const end = q.offset + page.length
  return {
    now: view.nowMs,
    staleAfterMs,
    total: rows.length,
    offset: q.offset,
    ...(end < rows.length ? { next: end } : {}),
    items,
  }
}
