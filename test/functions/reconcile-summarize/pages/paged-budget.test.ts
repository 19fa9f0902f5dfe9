/**
 * One placement of a hundred ConfigMaps over 1,200 destinations, summarized as the hook runs it: each
 * run one invocation of the real budget (1,000 subrequests, strict: a subrequest past it is
 * refused) at the hook's share, the key sent again while it is deferred. The summary needs several
 * invocations — the pages are read over them and combined in the last — none goes past its budget
 * (so no write is cut), their number is bounded by the pages, and the counts are right: every
 * destination live, a quarter of them reporting every copy (ready), the rest not yet (pending),
 * and each ConfigMap's executing count 300. The summarize step's clock stands at the moment the
 * leases were renewed: on a busy machine the runs can take longer than the staleness threshold,
 * and every edge would be judged stale by the time it is summarized.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  EDGE_PLACEMENTS,
  ESPW,
  LOCATIONS,
  SYNC_TARGETS,
  WORKSPACES,
} from '../../../../lib/apis/gvr.ts'
import { runInvocation, withShare } from '../../../../lib/budget/frames.ts'
import type { InvocationStats } from '../../../../lib/budget/invocation.ts'
import { SHARES } from '../../../../lib/budget/limits.ts'
import { applyReport } from '../../../../lib/edge/apply-report.ts'
import { renewLease } from '../../../../lib/edge/lease.ts'
import { createHubClient } from '../../../../lib/hub/client.ts'
import { silentLogger } from '../../../../lib/log.ts'
import { mapLimit } from '../../../../lib/map-limit.ts'
import { mailboxName } from '../../../../lib/reconcile/keys.ts'
import { runBatch, runKeys } from '../../../../lib/reconcile/run.ts'
import type { Controller } from '../../../../lib/reconcile/types.ts'
import { BASE } from '../../../helpers/hub.ts'
import { CM, configMap, createWorld, NS, placement, type World, WS } from '../world.ts'

const EDGES = 1_200
const OBJECTS = 100
const REPORTING = 300
const FLEET = 'root:fleet'

let w: World
let key: string
let leasedAt = 0
const uids: string[] = []

const name = (i: number) => `f${String(i).padStart(4, '0')}`
const cm = (i: number) => `cm-${String(i).padStart(2, '0')}`

async function runAll(c: Controller) {
  const { keys } = await c.listKeys(undefined, 100_000)
  for (const r of await runKeys(c, keys, silentLogger))
    if (!r.ok) throw new Error(`${c.name} ${r.key}: ${r.outcome}`)
}

beforeAll(async () => {
  w = await createWorld()
  const { client } = w
  await client.create('root', WORKSPACES, {
    apiVersion: 'tenancy.kcp.io/v1alpha1',
    kind: 'Workspace',
    metadata: { name: 'fleet' },
  })
  await client.create(FLEET, LOCATIONS, {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'Location',
    metadata: { name: 'fleet', labels: { env: 'fleet' } },
    spec: {
      resource: { group: 'edge.kcp.io', version: 'v1alpha1', resource: 'synctargets' },
      instanceSelector: { matchLabels: { fleet: 'big' } },
    },
  })
  const made = await mapLimit(
    Array.from({ length: EDGES }, (_, i) => i),
    16,
    (i) =>
      client.create(FLEET, SYNC_TARGETS, {
        apiVersion: 'edge.kcp.io/v1alpha1',
        kind: 'SyncTarget',
        metadata: { name: name(i), labels: { fleet: 'big' } },
      })
  )
  for (const st of made) uids.push(st.metadata.uid ?? '')
  await client.create(WS, NS, {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'app', labels: { team: 'app' } },
  })
  for (let i = 0; i < OBJECTS; i++) await client.create(WS, CM, configMap('app', cm(i)))
  await client.create(
    WS,
    EDGE_PLACEMENTS,
    placement('big', {
      locationSelectors: [{ matchLabels: { env: 'fleet' } }],
      namespaceSelector: { matchLabels: { team: 'app' } },
    })
  )
  for (let pass = 0; pass < 2; pass++)
    for (const step of ['mailbox', 'where', 'translate']) await runAll(w.step(step))
  const fleet = await client.space(FLEET)
  leasedAt = Date.now()
  await mapLimit(uids, 16, (uid) => renewLease(w.hub.deps.kv, fleet.id, uid, leasedAt))
  const env = {
    deps: w.hub.deps,
    client: createHubClient(w.hub.deps, { fieldManager: 'edge-upsync', baseUrl: BASE }),
    heartbeats: new Map(),
  }
  await mapLimit(uids.slice(0, REPORTING), 8, async (uid) => {
    const mb = mailboxName(fleet.id, uid)
    const statuses = Array.from({ length: OBJECTS }, (_, i) => ({
      group: '',
      version: 'v1',
      resource: 'configmaps',
      namespace: 'app',
      name: cm(i),
      observedGeneration: 1,
      status: {},
    }))
    const report = {
      kind: 'Report' as const,
      statuses,
      problems: [],
      upsync: { apply: [], delete: [] },
      heartbeat: false,
    }
    const res = await applyReport(
      env,
      { name: mb, space: await client.space(`${ESPW}:${mb}`) },
      report
    )
    if (res.rejected.length > 0) throw new Error(JSON.stringify(res.rejected))
  })
  key =
    (await w.step('summarize').listKeys(undefined, 100)).keys.find((k) => k.endsWith('/big')) ?? ''
}, 900_000)

afterAll(() => w?.close())

describe('a placement over 1,200 destinations, within the budget', () => {
  it('is summarized over several invocations, none over its budget, with the right counts', async () => {
    const stats: InvocationStats[] = []
    const budget = {
      subrequests: 1_000,
      mode: 'strict' as const,
      onEnd: (s: InvocationStats) => stats.push(s),
    }
    const c = w.summarizeWith({ now: () => new Date(leasedAt) })
    let outcome = ''
    for (let runs = 0; runs < 30 && !outcome; runs++) {
      const { results, deferred } = await runInvocation('hook:summarize', budget, () =>
        withShare(SHARES.hook, () => runBatch(c, [key], silentLogger))
      )
      if (deferred.length === 0) outcome = results[0]?.outcome ?? 'no outcome'
    }
    // The last run wrote the objects the run before had no room left for.
    expect(outcome).toMatch(/objects \d+ \(6 pages\)$/)
    // Six pages of 200 mailboxes, three per invocation, then the combination and its writes.
    expect(stats.length).toBeGreaterThan(1)
    expect(stats.length).toBeLessThanOrEqual(4)
    expect(stats.filter((s) => s.exceeded || s.overInWrites > 0)).toEqual([])
    const summary = await w.placementStatus('big')
    expect(summary).toMatchObject({
      destinations: EDGES,
      reportingDestinations: EDGES,
      staleDestinations: 0,
      objectCount: OBJECTS,
    })
    const rows = (summary.objects as { name: string; ready: number; pending: number }[]).filter(
      (r) => r.name.startsWith('cm-')
    )
    expect(rows).toHaveLength(OBJECTS)
    for (const r of rows) expect([r.ready, r.pending]).toEqual([REPORTING, EDGES - REPORTING])
    for (const i of [0, OBJECTS - 1]) {
      const o = await w.client.get(WS, CM, cm(i), 'app')
      expect(o?.metadata.annotations?.['kubestellar.io/executing-count']).toBe(String(REPORTING))
    }
  }, 600_000)
})
