/**
 * A Rollout's server dry run over the HTTP API answers with `status.preview` (lib/rollout/
 * preview.ts) and stores nothing, against the rollout step's world (edge c1 in ring canary, r1..r3
 * in ring rest, all reached by one placement): which edges fall in which wave, how many a revision
 * reaches at once under maxEdges, the edges no wave takes, the objects it would govern and, with
 * an older Rollout over the same objects, that the older one keeps them. A real create or a status
 * write keeps no preview.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { JsonObject, KubeObject } from '../../../lib/kube/types.ts'
import {
  createWorld,
  rolloutSpec,
  type World,
  WS,
} from '../../functions/reconcile-rollout/world.ts'

let w: World
const ROS = `/clusters/${WS}/apis/edge.kcp.io/v1alpha1/rollouts`
const rollout = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'Rollout',
  metadata: { name },
  spec,
})
const previewOf = (body: KubeObject) => (body.status as JsonObject | undefined)?.preview as any
const names = (list: { items: { syncTargetName: string }[] }) =>
  list.items.map((e) => e.syncTargetName).sort()

beforeAll(async () => {
  w = await createWorld()
  await w.setConfigMap('cfg', 'v1')
})
afterAll(() => w.close())

describe('a dry run of a Rollout', () => {
  it('answers which edges fall in which wave and stores nothing', async () => {
    const spec = rolloutSpec({
      waves: [
        { name: 'canary', locationSelectors: [{ matchLabels: { ring: 'canary' } }] },
        { name: 'rest', maxEdges: '50%', approval: true },
      ],
    })
    const res = await w.hub.call('POST', `${ROS}?dryRun=All`, rollout('dry', spec))
    expect(res.status).toBe(201)
    const p = previewOf(res.body)
    expect(p.waves.map((x: any) => [x.name, x.edges.count, x.inFlight, x.approval])).toEqual([
      ['canary', 1, 1, false],
      ['rest', 3, 2, true],
    ])
    expect(names(p.waves[0].edges)).toEqual(['c1'])
    expect(names(p.waves[1].edges)).toEqual(['r1', 'r2', 'r3'])
    expect(p.waves[0].edges.items[0]).toMatchObject({
      cluster: expect.any(String),
      locationName: 'c1',
    })
    expect(p.unassigned).toEqual({ count: 0, items: [] })
    expect(p.governed.items).toContainEqual({
      group: '',
      version: 'v1',
      resource: 'configmaps',
      namespace: 'shop',
      name: 'cfg',
    })
    expect(p).not.toHaveProperty('governedByOlder')
    expect((await w.hub.call('GET', `${ROS}/dry`)).status).toBe(404)
  })

  it('lists the edges no wave takes when there is no catch-all wave', async () => {
    const spec = rolloutSpec({
      waves: [{ name: 'canary', locationSelectors: [{ matchLabels: { ring: 'canary' } }] }],
    })
    const p = previewOf((await w.hub.call('POST', `${ROS}?dryRun=All`, rollout('dry', spec))).body)
    expect(p.waves.map((x: any) => x.edges.count)).toEqual([1])
    expect(p.unassigned.count).toBe(3)
    expect(names(p.unassigned)).toEqual(['r1', 'r2', 'r3'])
  })

  it('says an older Rollout keeps the objects both select', async () => {
    await w.createRollout('shop', rolloutSpec())
    const p = previewOf(
      (await w.hub.call('POST', `${ROS}?dryRun=All`, rollout('young', rolloutSpec()))).body
    )
    expect(p.governed.count).toBe(0)
    expect(p.governedByOlder).toEqual([{ name: 'shop', count: expect.any(Number) }])
    expect(p.governedByOlder[0].count).toBeGreaterThan(0)
  })

  it('keeps no preview on a real create or a status write', async () => {
    const body = { ...rollout('real', rolloutSpec()), status: { preview: { bogus: true } } }
    const res = await w.hub.call('POST', ROS, body)
    expect(res.status).toBe(201)
    expect(previewOf(res.body)).toBeUndefined()
    const stored = (await w.hub.call('GET', `${ROS}/real`)).body
    const put = await w.hub.call('PUT', `${ROS}/real/status`, {
      ...stored,
      status: { phase: 'Progressing', preview: { waves: [] } },
    })
    expect(put.status).toBe(200)
    expect(previewOf(put.body)).toBeUndefined()
    expect(previewOf((await w.hub.call('GET', `${ROS}/real`)).body)).toBeUndefined()
  })
})
