/**
 * The summarize step through the in-process hub, as a sequence of cases sharing one world
 * (world.ts): each case changes something (reports from edges as their agents send them,
 * heartbeats, workload changes), runs the steps, then checks the resulting EdgePlacement
 * summaries and workload objects — the singleton status of an object with one destination, the
 * aggregated status of one with three — and that a second summarize run writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EDGE_PLACEMENTS } from '../../../lib/apis/gvr.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import {
  CM,
  configMap,
  createWorld,
  DEPLOY,
  deployment,
  JOBS,
  job,
  NS,
  placement,
  type World,
  WS,
} from './world.ts'

let w: World

const ref = (resource: string, namespace: string, name: string) => ({
  group: resource === 'deployments' ? 'apps' : resource === 'jobs' ? 'batch' : '',
  version: 'v1',
  resource,
  namespace,
  name,
})
const webReady = {
  replicas: 2,
  updatedReplicas: 2,
  readyReplicas: 2,
  availableReplicas: 2,
  observedGeneration: 7,
}
const webHalf = {
  replicas: 2,
  updatedReplicas: 2,
  readyReplicas: 1,
  availableReplicas: 1,
  observedGeneration: 3,
}
const oneReady = { replicas: 1, updatedReplicas: 1, readyReplicas: 1, availableReplicas: 1 }
const complete = { conditions: [{ type: 'Complete', status: 'True' }], succeeded: 1 }
const failedJob = {
  conditions: [{ type: 'Failed', status: 'True', message: 'BackoffLimitExceeded' }],
}

beforeAll(async () => {
  w = await createWorld()
  const { client } = w
  for (const team of ['app', 'solo', 'many', 'up'])
    await client.create(WS, NS, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: team, labels: { team } },
    })
  await client.create(WS, DEPLOY, deployment('app', 'web', 2))
  await client.create(WS, CM, configMap('app', 'cfg'))
  await client.create(WS, JOBS, job('app', 'once'))
  await client.create(WS, DEPLOY, deployment('solo', 'single', 1))
  for (let i = 0; i < 25; i++)
    await client.create(WS, CM, configMap('many', `m${String(i).padStart(2, '0')}`))
  const to = (key: string, values: string[]) => [
    { matchExpressions: [{ key, operator: 'In', values }] },
  ]
  const eps = [
    placement('p', {
      locationSelectors: to('env', ['prod', 'dev']),
      namespaceSelector: { matchLabels: { team: 'app' } },
    }),
    placement('solo', {
      locationSelectors: to('loc', ['e1']),
      namespaceSelector: { matchLabels: { team: 'solo' } },
    }),
    placement('many', {
      locationSelectors: to('loc', ['e3']),
      namespaceSelector: { matchLabels: { team: 'many' } },
    }),
    placement('up', {
      locationSelectors: to('loc', ['e1', 'e2']),
      namespaceSelector: { matchLabels: { team: 'up' } },
      upsync: [{ apiGroup: '', resources: ['configmaps'], namespaces: ['up'], names: ['*'] }],
    }),
  ]
  for (const ep of eps) await client.create(WS, EDGE_PLACEMENTS, ep)
  await w.placeAll()
  for (const e of ['e1', 'e2', 'e3'] as const) await w.heartbeat(e)
}, 120_000)

afterAll(() => w?.close())

const get = async (gvr: typeof DEPLOY, ns: string, name: string) =>
  (await w.client.get(WS, gvr, name, ns)) as KubeObject
const count = (o: KubeObject) => o.metadata.annotations?.['kubestellar.io/executing-count']
const from = (o: KubeObject) => o.metadata.annotations?.['edge.kcp.io/status-from']
const aggregated = (o: KubeObject) =>
  ((o.status as any)?.conditions ?? []).find((c: any) => c.type === 'edge.kcp.io/Aggregated')
const counts = (s: any, name: string) => {
  const o = s.objects.find((x: any) => x.name === name)
  return Object.fromEntries(
    Object.entries(o).filter(([k, v]) => typeof v === 'number' && v > 0 && k)
  )
}

type Case = { name: string; act: () => Promise<void>; check: () => Promise<void> }

const cases: Case[] = [
  {
    name: 'before any report: every copy pending, executing count 0',
    act: async () => {},
    check: async () => {
      const s = await w.placementStatus('p')
      expect(s).toMatchObject({
        destinations: 3,
        reportingDestinations: 3,
        staleDestinations: 0,
        objectCount: 3,
        brokenCount: 0,
      })
      expect(s.totals).toEqual({
        pending: 9,
        applied: 0,
        ready: 0,
        failed: 0,
        removing: 0,
        stale: 0,
      })
      expect(counts(s, 'web')).toEqual({ pending: 3 })
      const web = await get(DEPLOY, 'app', 'web')
      expect(count(web)).toBe('0')
      expect(from(web)).toBe('0/3')
      expect(aggregated(web)).toMatchObject({
        status: 'False',
        reason: 'EdgesNotReported',
        message: 'status of 0 of 3 edges; not reported on generation 1 yet: e1, e2, e3',
      })
      expect(web.status).not.toHaveProperty('observedGeneration')
    },
  },
  {
    name: 'one of three edges reports ready: counted ready; the status waits for the others',
    act: () =>
      w.report('e1', {
        heartbeat: true,
        statuses: [
          { ...ref('deployments', 'app', 'web'), status: webReady },
          { ...ref('configmaps', 'app', 'cfg'), status: {} },
          { ...ref('jobs', 'app', 'once'), status: complete },
        ],
      }),
    check: async () => {
      const s = await w.placementStatus('p')
      expect(counts(s, 'web')).toEqual({ ready: 1, pending: 2 })
      expect(counts(s, 'cfg')).toEqual({ ready: 1, pending: 2 })
      expect(counts(s, 'once')).toEqual({ ready: 1, pending: 2 })
      const web = await get(DEPLOY, 'app', 'web')
      expect(count(web)).toBe('1')
      expect(from(web)).toBe('1/3')
      expect(web.status).toEqual({ replicas: 2, conditions: [aggregated(web)] })
    },
  },
  {
    name: 'a second edge: applied (not ready), failed with reasons in the broken list',
    act: () =>
      w.report('e2', {
        statuses: [
          { ...ref('deployments', 'app', 'web'), status: webHalf },
          { ...ref('jobs', 'app', 'once'), status: failedJob },
        ],
        problems: [
          { ...ref('configmaps', 'app', 'cfg'), reason: 'ForeignObject', message: 'cfg exists' },
        ],
      }),
    check: async () => {
      const s = await w.placementStatus('p')
      expect(counts(s, 'web')).toEqual({ ready: 1, applied: 1, pending: 1 })
      expect(counts(s, 'cfg')).toEqual({ ready: 1, failed: 1, pending: 1 })
      expect(counts(s, 'once')).toEqual({ ready: 1, failed: 1, pending: 1 })
      expect(s.brokenCount).toBe(2)
      expect(s.broken.map((b: any) => [b.name, b.syncTarget, b.reason])).toEqual([
        ['cfg', 'e2', 'ForeignObject'],
        ['once', 'e2', 'JobFailed'],
      ])
      const web = await get(DEPLOY, 'app', 'web')
      expect(count(web)).toBe('2')
      expect(from(web)).toBe('2/3')
      expect(web.status).toEqual({ replicas: 2, conditions: [aggregated(web)] })
    },
  },
  {
    name: 'every edge reported: the generation observed, the least of what runs, from 3 of 3',
    act: () =>
      w.report('e3', { statuses: [{ ...ref('deployments', 'app', 'web'), status: webReady }] }),
    check: async () => {
      const web = await get(DEPLOY, 'app', 'web')
      expect(count(web)).toBe('3')
      expect(from(web)).toBe('3/3')
      expect(web.status).toMatchObject({
        observedGeneration: web.metadata.generation,
        replicas: 2,
        updatedReplicas: 2,
        readyReplicas: 1,
        availableReplicas: 1,
      })
      expect(aggregated(web)).toMatchObject({
        status: 'True',
        reason: 'AllEdgesReported',
        message: 'status of 3 of 3 edges: e1, e2, e3',
      })
    },
  },
  {
    name: 'a singleton placement: its one destination runs it, the status comes back',
    act: () =>
      w.report('e1', {
        statuses: [
          {
            ...ref('deployments', 'solo', 'single'),
            status: {
              ...webReady,
              replicas: 1,
              updatedReplicas: 1,
              readyReplicas: 1,
              availableReplicas: 1,
            },
          },
        ],
      }),
    check: async () => {
      expect(counts(await w.placementStatus('solo'), 'single')).toEqual({ ready: 1 })
      const single = await get(DEPLOY, 'solo', 'single')
      expect(count(single)).toBe('1')
      expect(from(single)).toBe('1/1')
      expect(single.status).toMatchObject({ availableReplicas: 1, observedGeneration: 1 })
    },
  },
  {
    name: 'a singleton changed but not translated yet: its status is not claimed for the new spec',
    act: async () => {
      const single = await get(DEPLOY, 'solo', 'single')
      await w.client.update(WS, DEPLOY, {
        ...single,
        spec: deployment('solo', 'single', 1, 'nginx:2').spec,
      })
    },
    check: async () => {
      const single = await get(DEPLOY, 'solo', 'single')
      expect(single.metadata.generation).toBe(2)
      expect(count(single)).toBe('1')
      expect(single.status).toMatchObject({ observedGeneration: 1 })
    },
  },
  {
    name: 'translated and reported again: the status follows the new generation',
    act: async () => {
      await w.placeAll()
      await w.report('e1', {
        statuses: [
          {
            ...ref('deployments', 'solo', 'single'),
            status: { ...oneReady, observedGeneration: 9 },
          },
        ],
      })
    },
    check: async () => {
      const single = await get(DEPLOY, 'solo', 'single')
      expect(count(single)).toBe('1')
      expect(single.status).toEqual({ ...oneReady, observedGeneration: 2 })
    },
  },
  {
    name: 'upsynced objects are summarized per placement',
    act: () =>
      w.report('e1', {
        upsync: {
          apply: [
            {
              apiVersion: 'v1',
              kind: 'ConfigMap',
              metadata: { name: 'from-e1', namespace: 'up' },
              data: { x: '1' },
            },
          ],
          delete: [],
        },
      }),
    check: async () => {
      expect((await w.placementStatus('up')).upsync).toEqual({
        count: 1,
        destinations: 1,
        objects: [
          expect.objectContaining({
            group: '',
            resource: 'configmaps',
            namespace: 'up',
            name: 'from-e1',
            syncTarget: 'e1',
          }),
        ],
      })
      expect((await w.placementStatus('p')).upsync).toBeUndefined()
    },
  },
  {
    name: 'a silent edge is stale, not healthy; the broken list is bounded',
    act: () => w.heartbeat('e3', 3_600_000),
    check: async () => {
      const s = await w.placementStatus('p')
      expect(s).toMatchObject({ reportingDestinations: 2, staleDestinations: 1 })
      expect(counts(s, 'web')).toEqual({ ready: 1, applied: 1, stale: 1 })
      const web = await get(DEPLOY, 'app', 'web')
      expect(from(web)).toBe('2/3 (1 stale)')
      expect(web.status).toMatchObject({ observedGeneration: 1, readyReplicas: 1 })
      expect(aggregated(web)).toMatchObject({
        status: 'False',
        reason: 'StaleEdges',
        message: 'status of 2 of 3 edges: e1, e2; stale, not counted: e3',
      })
      const many = await w.placementStatus('many')
      expect(many).toMatchObject({ objectCount: 25, brokenCount: 25, staleDestinations: 1 })
      expect(many.broken).toHaveLength(20)
      expect(new Set(many.broken.map((b: any) => b.reason))).toEqual(new Set(['StaleDestination']))
    },
  },
  {
    name: 'a spec change: older-generation reports are pending, the count drops, the generation is not observed',
    act: async () => {
      const web = await get(DEPLOY, 'app', 'web')
      await w.client.update(WS, DEPLOY, {
        ...web,
        spec: deployment('app', 'web', 2, 'nginx:2').spec,
      })
      await w.placeAll()
    },
    check: async () => {
      expect(counts(await w.placementStatus('p'), 'web')).toEqual({ pending: 2, stale: 1 })
      const web = await get(DEPLOY, 'app', 'web')
      expect(count(web)).toBe('0')
      expect(web.metadata.generation).toBe(2)
      expect(web.status).toMatchObject({ availableReplicas: 1, observedGeneration: 1 })
      expect(aggregated(web)).toMatchObject({
        reason: 'StaleEdges',
        message:
          'status of 0 of 3 edges; stale, not counted: e3; not reported on generation 2 yet: e1, e2',
      })
    },
  },
  {
    name: 'an object no placement selects any more loses its count',
    act: async () => {
      await w.client.delete(WS, EDGE_PLACEMENTS, 'solo')
      await w.placeAll()
    },
    check: async () => {
      const single = await get(DEPLOY, 'solo', 'single')
      expect(count(single)).toBeUndefined()
      expect(from(single)).toBeUndefined()
    },
  },
]

describe('summarize', () => {
  it.each(cases)('$name', async (c) => {
    await c.act()
    await w.summarize()
    await c.check()
    const again = await w.summarize()
    expect(again.filter((o) => !o.endsWith('unchanged'))).toEqual([])
  })
})
