/**
 * "Agents last seen" for /metrics, from what the center already keeps: each SyncTarget's
 * `status.lastSyncerHeartbeatTime` or its lease (lib/edge/lease.ts, renewed once a minute while
 * its agent reports), whichever is later (lib/summarize/liveness.ts `lastHeard`). Read with the
 * cross-space list (pages of 500 on the index) and one lease Query per inventory space, at most
 * once a minute per isolate (EdgeSeenCache), since the heartbeat itself has minute resolution.
 * At 10,000 edges one series per edge on every scrape would be most of the exposition and say
 * nothing while all is well, so the gauges are: the count of SyncTargets per heartbeat age bucket
 * (bounded; the first bucket is the edges heard within the staleness threshold, the rest are
 * stale), and the last-heartbeat time of each SyncTarget stale by that rule (lib/summarize/
 * liveness.ts, the one every view reads: `kubectl get synctargets`, the dashboard, the summary),
 * the most recently lost first, at most MAX_STALE_SERIES of them (what an operator acts on, by
 * name).
 */
import { SYNC_TARGETS } from '../apis/gvr.ts'
import { leasesOf } from '../edge/lease.ts'
import { getSpaceById } from '../hub/spaces.ts'
import { humanDuration } from '../kube/printers/duration.ts'
import type { KvStore, ObjectStore } from '../store/types.ts'
import { DEFAULT_LIVENESS, isLive, type Liveness, lastHeard } from '../summarize/liveness.ts'
import {
  EDGES_BY_LAST_SEEN,
  EDGES_SCANNED_AT,
  type FamilySpec,
  STALE_EDGE_LAST_SEEN,
} from './hub-catalog.ts'
import type { MetricFamily, Series } from './registry.ts'

export type EdgeSeen = { space: string; name: string; lastSeenMs: number | undefined }
export type EdgeScan = { at: number; edges: EdgeSeen[] }

export const MAX_STALE_SERIES = 200
export const EDGE_SCAN_TTL_MS = 60_000

/** The fixed bounds of the stale buckets, past the threshold's. */
const LATER: [number, string][] = [
  [15 * 60_000, '15m'],
  [60 * 60_000, '1h'],
  [24 * 60 * 60_000, '1d'],
]

/**
 * Age buckets, upper bound in ms (exclusive) and label: the threshold's first (`0-3m` by
 * default), then those of LATER past it, then the rest (`1d+`).
 */
export function ageBuckets(staleAfterMs: number): [number, string][] {
  let from = humanDuration(staleAfterMs)
  const out: [number, string][] = [[staleAfterMs, `0-${from}`]]
  for (const [ms, label] of LATER) {
    if (ms <= staleAfterMs) continue
    out.push([ms, `${from}-${label}`])
    from = label
  }
  out.push([Number.POSITIVE_INFINITY, `${from}+`])
  return out
}

/** Every SyncTarget not being deleted, with its space path and last heartbeat. */
export async function scanEdges(
  deps: { objects: ObjectStore; kv: KvStore },
  at: number
): Promise<EdgeScan> {
  const paths = new Map<string, string>()
  const leases = new Map<string, Map<string, number>>()
  const edges: EdgeSeen[] = []
  let cont: string | undefined
  do {
    const page = await deps.objects.list({
      cluster: '*',
      group: SYNC_TARGETS.group,
      resource: SYNC_TARGETS.resource,
      limit: 500,
      ...(cont ? { continue: cont } : {}),
    })
    for (const st of page.items) {
      if (st.metadata.deletionTimestamp) continue
      const id = st.metadata.annotations?.['kcp.io/cluster'] ?? ''
      let path = paths.get(id)
      if (path === undefined) {
        path = (await getSpaceById(deps.kv, id))?.path ?? id
        paths.set(id, path)
      }
      let renewed = leases.get(id)
      if (!renewed) {
        renewed = await leasesOf(deps.kv, id)
        leases.set(id, renewed)
      }
      const lastSeenMs = lastHeard(st, renewed.get(st.metadata.uid ?? ''))
      edges.push({ space: path, name: st.metadata.name ?? '', lastSeenMs })
    }
    cont = page.continue
  } while (cont)
  return { at, edges }
}

const gauge = (spec: FamilySpec): MetricFamily => ({
  name: spec.name,
  help: spec.help,
  type: 'gauge',
  series: new Map(),
})

const put = (f: MetricFamily, labels: Record<string, string>, value: number) => {
  const s: Series = { labels, value }
  f.series.set(JSON.stringify(labels), s)
}

/** The edge gauges for `scan`, ages taken at `now`, stale by `rule`. */
export function edgeFamilies(
  scan: EdgeScan,
  now: number,
  rule: Liveness = DEFAULT_LIVENESS
): MetricFamily[] {
  const buckets = gauge(EDGES_BY_LAST_SEEN)
  const ages = ageBuckets(rule.staleAfterMs)
  const counts = new Map<string, number>([...ages.map(([, l]) => [l, 0] as const), ['never', 0]])
  const stale: EdgeSeen[] = []
  for (const e of scan.edges) {
    if (e.lastSeenMs === undefined) {
      counts.set('never', (counts.get('never') ?? 0) + 1)
      continue
    }
    const age = now - e.lastSeenMs
    const label = ages.find(([limit]) => age < limit)?.[1] ?? ''
    counts.set(label, (counts.get(label) ?? 0) + 1)
    if (!isLive(e.lastSeenMs, now, rule.staleAfterMs)) stale.push(e)
  }
  for (const [age, n] of counts) put(buckets, { age }, n)
  const lost = gauge(STALE_EDGE_LAST_SEEN)
  stale.sort((a, b) => (b.lastSeenMs ?? 0) - (a.lastSeenMs ?? 0))
  for (const e of stale.slice(0, MAX_STALE_SERIES))
    put(lost, { space: e.space, sync_target: e.name }, (e.lastSeenMs ?? 0) / 1000)
  const scanned = gauge(EDGES_SCANNED_AT)
  put(scanned, {}, scan.at / 1000)
  return [buckets, lost, scanned]
}

/** One scan per EDGE_SCAN_TTL_MS per isolate; concurrent scrapes share one scan in flight. */
export class EdgeSeenCache {
  private last: EdgeScan | undefined
  private running: Promise<EdgeScan> | undefined

  async get(deps: { objects: ObjectStore; kv: KvStore }, now: number): Promise<EdgeScan> {
    if (this.last && now - this.last.at < EDGE_SCAN_TTL_MS) return this.last
    this.running ??= scanEdges(deps, now).finally(() => {
      this.running = undefined
    })
    this.last = await this.running
    return this.last
  }
}
