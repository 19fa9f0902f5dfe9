/**
 * Summarizers through the in-process hub: two Deployments placed on three edges, reports from the
 * edges as their agents send them, then the StatusSummary of each Summarizer (table-driven: one
 * row per Summarizer, its spec and the summary it must get), a second run that writes nothing,
 * and the field-level validation of the kind (422 naming the field).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EDGE_PLACEMENTS, STATUS_SUMMARIES, SUMMARIZERS } from '../../../lib/apis/gvr.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { createWorld, DEPLOY, deployment, NS, placement, type World, WS } from './world.ts'

let w: World

const ready = (n: number) => ({
  replicas: n,
  updatedReplicas: n,
  readyReplicas: n,
  availableReplicas: n,
})
const dep = (name: string) => ({
  group: 'apps',
  version: 'v1',
  resource: 'deployments',
  namespace: 'app',
  name,
})
const readyPath = '$.status.readyReplicas'

type Row = { name: string; spec: Record<string, unknown>; want: Record<string, unknown> }

const rows: Row[] = [
  {
    name: 'by-env',
    spec: {
      subject: { group: 'apps', resource: 'deployments' },
      groupBy: [{ name: 'env', locationLabel: 'env' }],
      aggregations: [
        { name: 'copies', type: 'Count' },
        { name: 'ready', type: 'Sum', jsonPath: readyPath },
        { name: 'least', type: 'Min', jsonPath: readyPath },
        { name: 'most', type: 'Max', jsonPath: readyPath },
      ],
    },
    want: {
      objects: 2,
      copies: 6,
      reported: 5,
      pending: 1,
      failed: 0,
      stale: 0,
      groups: [
        {
          groupedBy: [{ name: 'env', value: 'dev' }],
          count: 1,
          aggregates: [
            { name: 'copies', value: 1 },
            { name: 'ready', value: 2 },
            { name: 'least', value: 2 },
            { name: 'most', value: 2 },
          ],
        },
        {
          groupedBy: [{ name: 'env', value: 'prod' }],
          count: 4,
          aggregates: [
            { name: 'copies', value: 4 },
            { name: 'ready', value: 9 },
            { name: 'least', value: 1 },
            { name: 'most', value: 3 },
          ],
        },
      ],
    },
  },
  {
    name: 'by-image',
    spec: {
      groupBy: [{ name: 'image', jsonPath: '$.spec.template.spec.containers[0].image' }],
      aggregations: [{ name: 'n', type: 'Count' }],
    },
    want: {
      groups: [
        {
          groupedBy: [{ name: 'image', value: 'api:1' }],
          count: 2,
          aggregates: [{ name: 'n', value: 2 }],
        },
        {
          groupedBy: [{ name: 'image', value: 'nginx:1' }],
          count: 3,
          aggregates: [{ name: 'n', value: 3 }],
        },
      ],
    },
  },
  {
    name: 'fresh',
    spec: { stalenessThresholdSeconds: 60, aggregations: [{ name: 'n', type: 'Count' }] },
    want: {
      copies: 6,
      reported: 3,
      pending: 1,
      stale: 2,
      groups: [{ groupedBy: [], count: 3, aggregates: [{ name: 'n', value: 3 }] }],
    },
  },
  {
    name: 'front',
    spec: {
      subject: { labelSelector: { matchLabels: { tier: 'front' } } },
      aggregations: [{ name: 'ready', type: 'Sum', jsonPath: readyPath }],
    },
    want: {
      objects: 1,
      copies: 3,
      groups: [{ groupedBy: [], count: 3, aggregates: [{ name: 'ready', value: 5 }] }],
    },
  },
  {
    name: 'nothing',
    spec: { subject: { name: 'absent' }, aggregations: [{ name: 'n', type: 'Count' }] },
    want: { objects: 0, copies: 0, reported: 0, groups: [] },
  },
]

beforeAll(async () => {
  w = await createWorld()
  const { client } = w
  await client.create(WS, NS, {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'app', labels: { team: 'app' } },
  })
  const web = deployment('app', 'web', 2)
  await client.create(WS, DEPLOY, {
    ...web,
    metadata: { ...web.metadata, labels: { tier: 'front' } },
  })
  await client.create(WS, DEPLOY, deployment('app', 'api', 3, 'api:1'))
  await client.create(
    WS,
    EDGE_PLACEMENTS,
    placement('p', { locationSelectors: [{}], namespaceSelector: { matchLabels: { team: 'app' } } })
  )
  for (const r of rows)
    await client.create(WS, SUMMARIZERS, {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'Summarizer',
      metadata: { name: r.name, namespace: 'app' },
      spec: r.spec as KubeObject['spec'],
    })
  await w.placeAll()
  await w.report('e1', {
    statuses: [
      { ...dep('web'), status: ready(2) },
      { ...dep('api'), status: ready(3) },
    ],
  })
  await w.report('e2', {
    statuses: [
      { ...dep('web'), status: { ...ready(2), readyReplicas: 1 } },
      { ...dep('api'), status: ready(3) },
    ],
  })
  await w.report('e3', { statuses: [{ ...dep('web'), status: ready(2) }] })
  await w.heartbeat('e1')
  await w.heartbeat('e2', 120_000)
  await w.heartbeat('e3')
  await w.summarize()
}, 120_000)

afterAll(() => w?.close())

describe('Summarizer → StatusSummary', () => {
  it.each(rows)('$name', async (r) => {
    const summarizer = await w.client.get(WS, SUMMARIZERS, r.name, 'app')
    const summary = await w.client.get(WS, STATUS_SUMMARIES, r.name, 'app')
    expect(summary?.summary).toMatchObject({ summarizerGeneration: 1, ...r.want })
    expect(summary?.metadata.ownerReferences).toEqual([
      expect.objectContaining({
        kind: 'Summarizer',
        uid: summarizer?.metadata.uid,
        controller: true,
      }),
    ])
  })

  it('writes nothing on a second run', async () => {
    const again = await w.summarize()
    expect(again.filter((o) => !o.endsWith('unchanged'))).toEqual([])
  })

  it('follows a report: a new group value moves a copy', async () => {
    await w.report('e3', { statuses: [{ ...dep('api'), status: ready(1) }] })
    await w.summarize()
    const s = await w.client.get(WS, STATUS_SUMMARIES, 'by-env', 'app')
    expect(s?.summary).toMatchObject({ reported: 6, pending: 0 })
  })

  it.each([
    [{ groupBy: [{ name: 'x', jsonPath: 'spec.a' }] }, 'spec.groupBy[0].jsonPath'],
    [
      { groupBy: [{ name: 'x', jsonPath: '$.a', locationLabel: 'env' }] },
      'spec.groupBy[0].jsonPath',
    ],
    [{ groupBy: [{ name: 'x', locationLabel: 'bad key!' }] }, 'spec.groupBy[0].locationLabel'],
    [
      {
        aggregations: [
          { name: 'n', type: 'Count' },
          { name: 'n', type: 'Count' },
        ],
      },
      'spec.aggregations[1].name',
    ],
    [{ aggregations: [{ name: 's', type: 'Sum' }] }, 'spec.aggregations[0].jsonPath'],
    [{ aggregations: [{ name: 's', type: 'Avg', jsonPath: '$.a' }] }, 'spec.aggregations[0].type'],
    [{ aggregations: [] }, 'spec.aggregations'],
  ])('refuses %j with 422 naming %s', async (spec, field) => {
    const body = {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'Summarizer',
      metadata: { name: 'bad', namespace: 'app' },
      spec: { aggregations: [{ name: 'n', type: 'Count' }], ...spec },
    }
    const res = await w.hub.call(
      'POST',
      `/clusters/${WS}/apis/edge.kcp.io/v1alpha1/namespaces/app/summarizers`,
      body
    )
    expect(res.status).toBe(422)
    expect(res.body.details.causes.map((c: { field: string }) => c.field)).toContain(field)
  })
})
