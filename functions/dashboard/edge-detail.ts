/**
 * `GET /ui/api/edge?key=<mailbox>`: one edge as the edges view's panel shows it — the edges view's
 * item (labels, Locations, last seen, agent and its polls, what it holds by state) and the copies
 * it holds that the session may see, worst first, at most MAX_COPIES (`total` counts them all):
 * each with its state and reason and the workload spaces and placements it came from, so the panel
 * can open the placement's cell there. An edge of an inventory space the session cannot see, or
 * that is no inventory (lib/tenancy/policy.ts), answers 404 as one that does not exist: the edges
 * view does not list it either. Reads: the inventory's SyncTargets (one list), the edge's lease,
 * its Locations and its mailbox.
 */
import type { SyncTargetObject } from '../../lib/apis/edge-objects.ts'
import { SYNC_TARGETS } from '../../lib/apis/gvr.ts'
import { maySee } from '../../lib/auth/tokens.ts'
import { readLease } from '../../lib/edge/lease.ts'
import { isNotFound, notFound } from '../../lib/errors.ts'
import { parseMailboxName } from '../../lib/reconcile/keys.ts'
import { lastHeard } from '../../lib/summarize/liveness.ts'
import { loadTenancy } from '../../lib/tenancy/load.ts'
import type { HeldCopy } from './edge-copies.ts'
import { edgeItems, type Row } from './edges.ts'
import { STATE_RANK } from './states.ts'
import type { View } from './view.ts'

export const MAX_COPIES = 100

const missing = (key: string) => notFound('synctargets', { group: 'edge.kcp.io', name: key })

/** The edges view's row of the edge with mailbox `key`, when the session may see it. */
async function rowOf(view: View, key: string): Promise<Row> {
  const parsed = parseMailboxName(key)
  if (!parsed) throw missing(key)
  const cluster = parsed.inventorySpaceId
  const path = await view.pathOf(cluster)
  if (!maySee(view.principal, path) || !(await loadTenancy(view.client)).isInventory(path))
    throw missing(key)
  let sts: SyncTargetObject[] = []
  try {
    sts = (await view.client.list(cluster, SYNC_TARGETS)) as SyncTargetObject[]
  } catch (e) {
    if (!isNotFound(e)) throw e
  }
  const st = sts.find((o) => o.metadata.uid === parsed.syncTargetUid)
  if (!st || st.metadata.deletionTimestamp) throw missing(key)
  const lease = await readLease(view.hub.kv, cluster, parsed.syncTargetUid)
  return { st, cluster, path, lease, lastSeen: lastHeard(st, lease?.renewedAt) }
}

const rank = (c: HeldCopy) => STATE_RANK.indexOf(c.condition.state)
const nameOf = (c: HeldCopy) =>
  [c.entry.group, c.entry.resource, c.entry.namespace, c.entry.name].join('/')

export async function edgeDetail(view: View, key: string) {
  const row = await rowOf(view, key)
  const [{ item, copies }] = (await edgeItems(view, [row])) as [
    Awaited<ReturnType<typeof edgeItems>>[number],
  ]
  const sorted = [...copies].sort((a, b) => rank(a) - rank(b) || nameOf(a).localeCompare(nameOf(b)))
  return {
    now: view.nowMs,
    edge: item,
    total: copies.length,
    copies: sorted.slice(0, MAX_COPIES).map((c) => ({
      group: c.entry.group,
      version: c.entry.version,
      resource: c.entry.resource,
      ...(c.entry.namespace ? { namespace: c.entry.namespace } : {}),
      name: c.entry.name,
      state: c.condition.state,
      ...(c.condition.reason ? { reason: c.condition.reason } : {}),
      ...(c.condition.message ? { message: c.condition.message } : {}),
      sources: c.sources,
    })),
  }
}
