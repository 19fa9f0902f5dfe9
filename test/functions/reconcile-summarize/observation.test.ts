/**
 * A placement observed in pages gives exactly what one read of all its mailboxes gives
 * (functions/reconcile-summarize/observation.ts): three edges — one reporting, one reporting a
 * problem and a lower ready count, one stale —, two Deployments (their aggregated status), a
 * ConfigMap, a Summarizer. Summarized in one read, then in pages of one mailbox, the second run
 * finds nothing to write, and everything it would write — the placement's status, the objects'
 * counts and statuses, the StatusSummary, the Events — is the same; after a change the other way
 * round. The paged run keeps its pages in the key-value store; the single read keeps none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PAGES_NS } from '../../../functions/reconcile-summarize/pages/page-store.ts'
import { EDGE_PLACEMENTS, STATUS_SUMMARIES, SUMMARIZERS } from '../../../lib/apis/gvr.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { silentLogger } from '../../../lib/log.ts'
import { runKeys } from '../../../lib/reconcile/run.ts'
import type { Controller } from '../../../lib/reconcile/types.ts'
import {
  CM,
  configMap,
  createWorld,
  DEPLOY,
  deployment,
  NS,
  placement,
  type World,
  WS,
} from './world.ts'

let w: World

const ready = (n: number) => ({
  replicas: n,
  updatedReplicas: n,
  readyReplicas: n,
  availableReplicas: n,
})
const ref = (resource: string, name: string) => ({
  group: resource === 'deployments' ? 'apps' : '',
  version: 'v1',
  resource,
  namespace: 'app',
  name,
})
const EVENTS = { group: '', version: 'v1', resource: 'events' }

async function run(c: Controller): Promise<string[]> {
  const { keys } = await c.listKeys(undefined, 100)
  const out = await runKeys(c, keys, silentLogger)
  for (const r of out) if (!r.ok) throw new Error(`${r.key}: ${r.outcome}`)
  return out.map((r) => r.outcome)
}

/** Everything the summarize step writes in the workload space, as stored. */
async function written(): Promise<unknown> {
  const get = (gvr: typeof CM, name: string, ns?: string) => w.client.get(WS, gvr, name, ns)
  const events = await w.client.list(WS, EVENTS)
  const pick = (o: KubeObject | undefined) =>
    o && { metadata: o.metadata, status: o.status, summary: (o as { summary?: unknown }).summary }
  return {
    placement: pick(await get(EDGE_PLACEMENTS, 'p')),
    web: pick(await get(DEPLOY, 'web', 'app')),
    api: pick(await get(DEPLOY, 'api', 'app')),
    cfg: pick(await get(CM, 'cfg', 'app')),
    summary: pick(await get(STATUS_SUMMARIES, 'by-env', 'app')),
    events: events.map((e) => pick(e)),
  }
}

beforeAll(async () => {
  w = await createWorld()
  const { client } = w
  await client.create(WS, NS, {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'app', labels: { team: 'app' } },
  })
  await client.create(WS, DEPLOY, deployment('app', 'web', 2))
  await client.create(WS, DEPLOY, deployment('app', 'api', 3, 'api:1'))
  await client.create(WS, CM, configMap('app', 'cfg'))
  await client.create(
    WS,
    EDGE_PLACEMENTS,
    placement('p', { locationSelectors: [{}], namespaceSelector: { matchLabels: { team: 'app' } } })
  )
  await client.create(WS, SUMMARIZERS, {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'Summarizer',
    metadata: { name: 'by-env', namespace: 'app' },
    spec: {
      subject: { group: 'apps', resource: 'deployments' },
      groupBy: [{ name: 'env', locationLabel: 'env' }],
      aggregations: [{ name: 'ready', type: 'Sum', jsonPath: '$.status.readyReplicas' }],
    },
  })
  await w.placeAll()
  await w.report('e1', {
    statuses: [
      { ...ref('deployments', 'web'), status: ready(2) },
      { ...ref('deployments', 'api'), status: ready(3) },
      { ...ref('configmaps', 'cfg'), status: {} },
    ],
  })
  await w.report('e2', {
    statuses: [{ ...ref('deployments', 'web'), status: { ...ready(2), readyReplicas: 1 } }],
    problems: [{ ...ref('configmaps', 'cfg'), reason: 'ApplyFailed', message: 'no room' }],
  })
  await w.report('e3', { statuses: [{ ...ref('deployments', 'web'), status: ready(2) }] })
  await w.heartbeat('e1')
  await w.heartbeat('e2')
  await w.heartbeat('e3', 600_000)
}, 120_000)

afterAll(() => w?.close())

describe('a placement observed in pages', () => {
  it('writes nothing after one read of every mailbox, and keeps no pages for it', async () => {
    const once = await run(w.step('summarize'))
    expect(once.join()).toContain('status updated')
    expect(await w.hub.deps.kv.list(PAGES_NS)).toEqual([])
    const before = await written()
    const paged = await run(w.summarizeWith({ pageSize: 1 }))
    expect(paged).toEqual(['unchanged (3 pages)'])
    expect(await written()).toEqual(before)
    const stored = await w.hub.deps.kv.list(PAGES_NS)
    expect(stored.map((e) => e.key.split('#')[1] ?? 'pass').sort()).toEqual(['0', '1', '2', 'pass'])
  })

  it('and one read of every mailbox writes nothing after the pages', async () => {
    await w.report('e3', { statuses: [{ ...ref('deployments', 'api'), status: ready(1) }] })
    await w.report('e2', { statuses: [{ ...ref('configmaps', 'cfg'), status: {} }] })
    await w.heartbeat('e3')
    const paged = await run(w.summarizeWith({ pageSize: 2 }))
    expect(paged.join()).toMatch(/status updated.*\(2 pages\)/)
    const after = await written()
    expect(await run(w.step('summarize'))).toEqual(['unchanged'])
    expect(await written()).toEqual(after)
  })
})
