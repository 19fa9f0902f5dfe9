/**
 * The summarize step's Ready condition and problem Events through the in-process hub (world.ts),
 * with the step's clock under the test's control: Ready moves Propagating → Progressing → True
 * (READY in the table kubectl gets) → EdgeProblems and back, its lastTransitionTime moving only
 * with its status; an edge problem becomes one Warning Event about the placement per reason —
 * found by the field selector `kubectl describe edgeplacement` sends, and kept when the object and
 * its namespace go — and one per (object, reason), each counting the edges; they are not written
 * again for a report delivered twice, take a changed message only a minute after their last write,
 * are recorded again (count + 1) while the problem lasts, and are deleted an hour after they were
 * last seen; at most twenty Events are written per run, the placement's first; deleting the
 * placement collects its Events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { summarizeController } from '../../../functions/reconcile-summarize/controller.ts'
import { builtinsFrom } from '../../../lib/apis/builtins.ts'
import { EDGE_PLACEMENTS } from '../../../lib/apis/gvr.ts'
import { createHubClient } from '../../../lib/hub/client.ts'
import { registryForSpace } from '../../../lib/hub/space-registry.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { silentLogger } from '../../../lib/log.ts'
import { whereKey } from '../../../lib/reconcile/keys.ts'
import { CONTROLLER_MANAGER, type Controller } from '../../../lib/reconcile/types.ts'
import { BASE } from '../../helpers/hub.ts'
import {
  CM,
  configMap,
  createWorld,
  DEPLOY,
  deployment,
  type Edge,
  NS,
  placement,
  type World,
  WS,
} from './world.ts'

const EVENTS = { group: '', version: 'v1', resource: 'events' }
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io'

let w: World
let step: Controller
let offset = 0
let key: string
let floodKey: string

const cm = (name: string, ns = 'rdy') => ({
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespace: ns,
  name,
})
const web = { group: 'apps', version: 'v1', resource: 'deployments', namespace: 'rdy', name: 'web' }
const up = { replicas: 1, updatedReplicas: 1, readyReplicas: 1, availableReplicas: 1 }
const half = { replicas: 1, updatedReplicas: 1, readyReplicas: 0, availableReplicas: 0 }

/** Heartbeats as of the step's clock. */
async function beat(...edges: Edge[]) {
  for (const e of edges) await w.heartbeat(e, -offset)
}

/** What a run did, without the executing counts it wrote on objects. */
const did = async (k: string) => {
  const res = await step.reconcile(k)
  const parts = res.outcome.split(', ').filter((p) => !p.startsWith('objects '))
  return { outcome: parts.join(', ') || 'unchanged', requeueAfterMs: res.requeueAfterMs }
}

async function ready(name = 'rp') {
  const ep = await w.client.get(WS, EDGE_PLACEMENTS, name)
  const conditions = ((ep?.status as any)?.conditions ?? []) as any[]
  return conditions.find((c) => c.type === 'Ready')
}

async function events(reason?: string, kind?: string): Promise<any[]> {
  const all = (await w.client.list(WS, EVENTS)) as any[]
  return all.filter(
    (e) =>
      e.reportingComponent === 'edgeplane-summarize' &&
      (!reason || e.reason === reason) &&
      (!kind || e.involvedObject.kind === kind)
  )
}
const objectEvents = async (reason: string, ns = 'rdy') =>
  (await events(reason, 'ConfigMap')).filter((e) => e.involvedObject.namespace.startsWith(ns))
const placementEvents = async (reason: string, name = 'rp') =>
  (await events(reason, 'EdgePlacement')).filter((e) => e.involvedObject.name === name)
/** The Events placement `name` owns. */
const ownedBy = async (name: string) =>
  (await events()).filter((e) => e.metadata.ownerReferences?.[0]?.name === name)

/** The Events `kubectl describe edgeplacement <name>` lists: its field selector, all namespaces. */
async function described(name = 'rp'): Promise<any[]> {
  const ep = await w.client.get(WS, EDGE_PLACEMENTS, name)
  const selector = [
    `involvedObject.name=${name}`,
    'involvedObject.namespace=',
    'involvedObject.kind=EdgePlacement',
    `involvedObject.uid=${ep?.metadata.uid}`,
  ].join(',')
  const res = await w.hub.call(
    'GET',
    `/clusters/${WS}/api/v1/events?fieldSelector=${encodeURIComponent(selector)}`
  )
  expect(res.status).toBe(200)
  return res.body.items
}

beforeAll(async () => {
  w = await createWorld()
  const deps = w.hub.deps
  step = summarizeController({
    client: createHubClient(deps, { fieldManager: CONTROLLER_MANAGER, baseUrl: BASE }),
    projections: deps.projections,
    builtins: builtinsFrom(),
    now: () => new Date(Date.now() + offset),
    log: silentLogger,
    kv: deps.kv,
    registry: (id) => registryForSpace(deps, id),
  })
  for (const team of ['rdy', 'flood'])
    await w.client.create(WS, NS, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: team, labels: { team } },
    })
  await w.client.create(WS, CM, configMap('rdy', 'cfg'))
  await w.client.create(WS, DEPLOY, deployment('rdy', 'web', 1))
  for (let i = 0; i < 25; i++)
    await w.client.create(WS, CM, configMap('flood', `f${String(i).padStart(2, '0')}`))
  const on = (key: string, values: string[]) => [
    { matchExpressions: [{ key, operator: 'In', values }] },
  ]
  await w.client.create(
    WS,
    EDGE_PLACEMENTS,
    placement('rp', {
      locationSelectors: on('env', ['prod']),
      namespaceSelector: { matchLabels: { team: 'rdy' } },
    })
  )
  await w.client.create(
    WS,
    EDGE_PLACEMENTS,
    placement('fp', {
      locationSelectors: on('loc', ['e3']),
      namespaceSelector: { matchLabels: { team: 'flood' } },
    })
  )
  await w.placeAll()
  const space = await w.client.space(WS)
  key = whereKey(space.id, 'rp')
  floodKey = whereKey(space.id, 'fp')
  await beat('e1', 'e2', 'e3')
}, 120_000)

afterAll(() => w?.close())

describe('Ready', () => {
  let firstTransition: string

  it('is False while copies are not applied, with counts and the generation it observed', async () => {
    expect((await did(key)).outcome).toBe('status updated')
    const r = await ready()
    expect(r).toMatchObject({
      status: 'False',
      reason: 'Propagating',
      message: '4 of 4 copies not yet applied at the current version',
      observedGeneration: 1,
    })
    firstTransition = r.lastTransitionTime
    expect((await did(key)).outcome).toBe('unchanged')
  })

  it('is Progressing while a copy is applied but not ready; the transition time stays', async () => {
    offset += 5_000
    await beat('e1', 'e2')
    for (const e of ['e1', 'e2'] as const)
      await w.report(e, {
        statuses: [
          { ...cm('cfg'), status: {} },
          { ...web, status: e === 'e1' ? up : half },
        ],
      })
    await step.reconcile(key)
    expect(await ready()).toMatchObject({
      status: 'False',
      reason: 'Progressing',
      message: '1 of 4 copies applied but not ready yet',
      lastTransitionTime: firstTransition,
    })
  })

  it('is True once every copy is ready everywhere, and READY prints it', async () => {
    offset += 5_000
    await w.report('e2', { statuses: [{ ...web, status: up }] })
    await step.reconcile(key)
    const r = await ready()
    expect(r).toMatchObject({
      status: 'True',
      reason: 'AllReady',
      message: '2 objects ready at 2 destinations',
    })
    expect(Date.parse(r.lastTransitionTime)).toBeGreaterThan(Date.parse(firstTransition))
    const table = await w.hub.call(
      'GET',
      '/clusters/root:wmw/apis/edge.kcp.io/v1alpha1/edgeplacements/rp',
      undefined,
      { accept: TABLE }
    )
    const names = table.body.columnDefinitions.map((c: any) => c.name)
    expect(table.body.rows[0].cells[names.indexOf('Ready')]).toBe('True')
  })

  it('is False naming NoDestinations for a placement that matches no Location', async () => {
    await w.client.create(
      WS,
      EDGE_PLACEMENTS,
      placement('nowhere', {
        locationSelectors: [{ matchLabels: { env: 'mars' } }],
        namespaceSelector: { matchLabels: { team: 'rdy' } },
      })
    )
    await w.runAll(w.step('where'))
    await step.reconcile(whereKey((await w.client.space(WS)).id, 'nowhere'))
    expect(await ready('nowhere')).toMatchObject({ status: 'False', reason: 'NoDestinations' })
  })
})

describe('edge problem Events', () => {
  const foreign = (e: Edge) =>
    w.report(e, {
      problems: [{ ...cm('cfg'), reason: 'ForeignObject', message: `cfg exists at ${e}` }],
    })

  it('records one Warning Event about the placement and one about the object; Ready says EdgeProblems', async () => {
    offset += 5_000
    await beat('e1', 'e2')
    await foreign('e1')
    expect((await did(key)).outcome).toBe('status updated, events 2')
    const [e, ...more] = await objectEvents('ForeignObject')
    expect(more).toEqual([])
    expect(e).toMatchObject({
      type: 'Warning',
      metadata: { namespace: 'rdy' },
      involvedObject: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'rdy', name: 'cfg' },
      message:
        '1 of 2 destinations of EdgePlacement rp report ForeignObject: e1. e1: cfg exists at e1',
      count: 1,
    })
    const cfg = (await w.client.get(WS, CM, 'cfg', 'rdy')) as KubeObject
    expect(e.involvedObject.uid).toBe(cfg.metadata.uid)
    const ep = (await w.client.get(WS, EDGE_PLACEMENTS, 'rp')) as KubeObject
    const [own, ...others] = await described()
    expect(others).toEqual([])
    expect(own).toMatchObject({
      type: 'Warning',
      reason: 'ForeignObject',
      metadata: { namespace: 'default' },
      involvedObject: {
        apiVersion: 'edge.kcp.io/v1alpha1',
        kind: 'EdgePlacement',
        name: 'rp',
        namespace: '',
        uid: ep.metadata.uid,
      },
      message:
        '1 object reports ForeignObject at 1 of 2 destinations: configmaps rdy/cfg at e1. configmaps rdy/cfg at e1: cfg exists at e1',
      count: 1,
    })
    expect(await ready()).toMatchObject({
      status: 'False',
      reason: 'EdgeProblems',
      message:
        '1 of 4 copies failed at their edges (ForeignObject 1); see status.summary.broken and the Events',
    })
  })

  it('is not written again for the same report delivered twice', async () => {
    await foreign('e1')
    expect((await did(key)).outcome).toBe('unchanged')
    expect((await events('ForeignObject')).map((e) => e.count)).toEqual([1, 1])
  })

  it('takes a changed message only a minute after its last write, aggregating the edges', async () => {
    offset += 10_000
    await foreign('e2')
    const held = await did(key)
    expect(held.outcome).toBe('status updated')
    expect(held.requeueAfterMs).toBeGreaterThan(0)
    expect(held.requeueAfterMs).toBeLessThanOrEqual(50_000)
    expect((await objectEvents('ForeignObject'))[0].count).toBe(1)
    offset += 60_000
    await beat('e1', 'e2')
    expect((await did(key)).outcome).toBe('events 2')
    const [e, ...more] = await objectEvents('ForeignObject')
    expect(more).toEqual([])
    expect(e).toMatchObject({
      count: 2,
      message:
        '2 of 2 destinations of EdgePlacement rp report ForeignObject: e1, e2. e1: cfg exists at e1',
    })
    expect(Date.parse(e.lastTimestamp)).toBeGreaterThan(Date.parse(e.firstTimestamp))
    expect(await placementEvents('ForeignObject')).toMatchObject([
      {
        count: 2,
        message:
          '1 object reports ForeignObject at 2 of 2 destinations: configmaps rdy/cfg at e1, e2. configmaps rdy/cfg at e1: cfg exists at e1',
      },
    ])
  })

  it('records a lasting problem again every ten minutes', async () => {
    offset += 5 * 60_000
    await beat('e1', 'e2')
    expect((await did(key)).outcome).toBe('unchanged')
    offset += 6 * 60_000
    await beat('e1', 'e2')
    expect((await did(key)).outcome).toBe('events 2')
    expect((await events('ForeignObject')).map((e) => e.count)).toEqual([3, 3])
  })

  it('keeps the Events after the problem clears, and deletes them an hour after they were last seen', async () => {
    for (const e of ['e1', 'e2'] as const)
      await w.report(e, { statuses: [{ ...cm('cfg'), status: {} }] })
    await step.reconcile(key)
    expect((await ready()).status).toBe('True')
    expect(await events('ForeignObject')).toHaveLength(2)
    offset += 61 * 60_000
    await beat('e1', 'e2')
    expect((await did(key)).outcome).toBe('events expired 2')
    expect(await events()).toEqual([])
  })

  it("keeps the placement's Event when the failing object and its namespace go", async () => {
    await w.client.create(WS, NS, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'rdy2', labels: { team: 'rdy' } },
    })
    await w.client.create(WS, CM, configMap('rdy2', 'lost'))
    await w.placeAll()
    await beat('e1', 'e2')
    await w.report('e1', {
      problems: [{ ...cm('lost', 'rdy2'), reason: 'ApplyFailed', message: 'quota exceeded' }],
    })
    expect((await did(key)).outcome).toContain('events 2')
    expect(await objectEvents('ApplyFailed')).toHaveLength(1)
    await w.client.delete(WS, NS, 'rdy2')
    await w.hub.settle()
    await w.placeAll()
    await beat('e1', 'e2')
    await step.reconcile(key)
    // The object's Event went with its namespace; the placement's stays, where describe finds it.
    expect(await objectEvents('ApplyFailed')).toEqual([])
    expect((await described()).map((e) => [e.reason, e.message])).toEqual([
      [
        'ApplyFailed',
        '1 object reports ApplyFailed at 1 of 2 destinations: configmaps rdy2/lost at e1. configmaps rdy2/lost at e1: quota exceeded',
      ],
    ])
  })

  it('writes at most twenty Events per run and asks to run again for the rest', async () => {
    await beat('e3')
    await w.report('e3', {
      problems: Array.from({ length: 25 }, (_, i) => ({
        ...cm(`f${String(i).padStart(2, '0')}`, 'flood'),
        reason: 'ApplyFailed' as const,
        message: 'admission webhook denied the request',
      })),
    })
    const first = await did(floodKey)
    expect(first.outcome).toBe('status updated, events 20')
    expect(first.requeueAfterMs).toBe(5_000)
    // The placement's own Event first, then the objects'.
    expect(await placementEvents('ApplyFailed', 'fp')).toHaveLength(1)
    expect(await objectEvents('ApplyFailed', 'flood')).toHaveLength(19)
    expect((await did(floodKey)).outcome).toBe('events 6')
    const all = await objectEvents('ApplyFailed', 'flood')
    expect(all).toHaveLength(25)
    expect(new Set(all.map((e) => e.involvedObject.name)).size).toBe(25)
    expect((await did(floodKey)).outcome).toBe('unchanged')
  })

  it('goes with its placement', async () => {
    expect(await ownedBy('fp')).toHaveLength(26)
    await w.client.delete(WS, EDGE_PLACEMENTS, 'fp')
    await w.hub.settle()
    expect(await ownedBy('fp')).toEqual([])
  })
})
