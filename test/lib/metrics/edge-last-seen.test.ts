/**
 * The edge gauges: SyncTargets counted per heartbeat age bucket (never for none; the first bucket
 * ends at the staleness threshold every view reads, 3 minutes by default, else the configured
 * one), one timestamp series per SyncTarget stale by that rule, the most recently lost first and at most
 * MAX_STALE_SERIES of them; the scan is cached per isolate for a minute (a clock the test moves)
 * and sees each edge at the later of its SyncTarget's status heartbeat and its lease.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { renewLease } from '../../../lib/edge/lease.ts'
import {
  ageBuckets,
  EDGE_SCAN_TTL_MS,
  type EdgeSeen,
  EdgeSeenCache,
  edgeFamilies,
  MAX_STALE_SERIES,
  scanEdges,
} from '../../../lib/metrics/edge-last-seen.ts'
import type { Series } from '../../../lib/metrics/registry.ts'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { type Liveness, livenessRule } from '../../../lib/summarize/liveness.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'

const NOW = Date.parse('2030-01-01T00:00:00Z')
const min = 60_000
const edge = (name: string, agoMs?: number): EdgeSeen => ({
  space: 'root:imw',
  name,
  lastSeenMs: agoMs === undefined ? undefined : NOW - agoMs,
})

function values(scan: EdgeSeen[], rule?: Liveness) {
  const [buckets, stale, at] = edgeFamilies({ at: NOW - min, edges: scan }, NOW, rule)
  const of = (f: typeof buckets) => [...(f?.series.values() ?? [])] as Series[]
  return {
    buckets: Object.fromEntries(of(buckets).map((s) => [s.labels.age, s.value])),
    stale: of(stale).map((s) => [s.labels.sync_target, s.value]),
    at: of(at)[0]?.value,
  }
}

describe('edgeFamilies', () => {
  it('counts by age and names the stale ones, most recently lost first', () => {
    const v = values([
      edge('live', 30_000),
      edge('still-live', 3 * min - 1),
      edge('just-gone', 3 * min),
      edge('long-gone', 2 * 60 * min),
      edge('ancient', 3 * 24 * 60 * min),
      edge('new'),
    ])
    expect(v.buckets).toEqual({
      '0-3m': 2,
      '3m-15m': 1,
      '15m-1h': 0,
      '1h-1d': 1,
      '1d+': 1,
      never: 1,
    })
    expect(v.stale).toEqual([
      ['just-gone', (NOW - 3 * min) / 1000],
      ['long-gone', (NOW - 120 * min) / 1000],
      ['ancient', (NOW - 3 * 24 * 60 * min) / 1000],
    ])
    expect(v.at).toBe((NOW - min) / 1000)
  })

  it('caps the stale series', () => {
    const many = Array.from({ length: MAX_STALE_SERIES + 50 }, (_, i) =>
      edge(`e${i}`, (10 + i) * min)
    )
    const v = values(many)
    expect(v.stale).toHaveLength(MAX_STALE_SERIES)
    expect(v.stale[0]?.[0]).toBe('e0')
    expect(v.buckets['3m-15m'] + v.buckets['15m-1h'] + v.buckets['1h-1d']).toBe(many.length)
  })
})

describe('edgeFamilies by a configured staleness rule', () => {
  it('ends the first bucket at its threshold and counts stale by it', () => {
    const v = values(
      [edge('live', 29_000), edge('gone', 30_000), edge('older', 20 * min)],
      livenessRule(30)
    )
    expect(v.buckets).toEqual({
      '0-30s': 1,
      '30s-15m': 1,
      '15m-1h': 1,
      '1h-1d': 0,
      '1d+': 0,
      never: 0,
    })
    expect(v.stale.map(([name]) => name)).toEqual(['gone', 'older'])
  })

  it('leaves out the fixed bounds a long threshold passes', () => {
    expect(ageBuckets(2 * 60 * min).map(([, label]) => label)).toEqual(['0-120m', '120m-1d', '1d+'])
  })
})

describe('EdgeSeenCache', () => {
  const counter = createRequestCounter()
  let t: TestStore
  beforeAll(async () => {
    t = await createTestStore({ counter })
  })
  afterAll(() => t.close())

  it('reads the SyncTargets once per minute', async () => {
    const cache = new EdgeSeenCache()
    counter.reset()
    const first = await cache.get(t, NOW)
    expect(first.edges).toEqual([])
    const reads = counter.total()
    expect(reads).toBeGreaterThan(0)
    await cache.get(t, NOW + EDGE_SCAN_TTL_MS - 1)
    expect(counter.total()).toBe(reads)
    const again = await cache.get(t, NOW + EDGE_SCAN_TTL_MS)
    expect(counter.total()).toBe(2 * reads)
    expect(again.at).toBe(NOW + EDGE_SCAN_TTL_MS)
  })

  it('sees each edge at the later of its status heartbeat and its lease', async () => {
    const at = (ms: number) => new Date(ms).toISOString()
    const put = async (name: string, uid: string, statusMs?: number) => {
      const key = {
        cluster: 'inv1',
        group: 'edge.kcp.io',
        resource: 'synctargets',
        namespace: '',
        name,
      }
      await t.objects.create(key, {
        apiVersion: 'edge.kcp.io/v1alpha1',
        kind: 'SyncTarget',
        metadata: { name, uid, annotations: { 'kcp.io/cluster': 'inv1' } },
        ...(statusMs === undefined ? {} : { status: { lastSyncerHeartbeatTime: at(statusMs) } }),
      })
    }
    await put('leased', 'u1', NOW - 60 * min)
    await put('reported', 'u2', NOW - 2 * min)
    await put('quiet', 'u3')
    await renewLease(t.kv, 'inv1', 'u1', NOW - min)
    await renewLease(t.kv, 'inv1', 'u2', NOW - 30 * min)
    const scan = await scanEdges(t, NOW)
    const seen = Object.fromEntries(scan.edges.map((e) => [e.name, e.lastSeenMs]))
    expect(seen).toEqual({ leased: NOW - min, reported: NOW - 2 * min, quiet: undefined })
  })
})
