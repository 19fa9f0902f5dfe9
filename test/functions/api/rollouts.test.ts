/**
 * The Rollout kind as the hub serves it in a workload space: discovery and OpenAPI list it
 * (cluster-scoped, with a status subresource), admission answers bad specs 422 Invalid with kube's
 * wording and stores nothing, a spec write leaves the status alone and the status subresource
 * writes only the status, and a Table list prints REVISION, WAVE, PHASE and READY.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io'
const DISCOVERY = '/clusters/root:ro/apis/edge.kcp.io/v1alpha1'
const ROS = `${DISCOVERY}/rollouts`

const rollout = (name: string, spec: unknown) => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'Rollout',
  metadata: { name },
  spec,
})
const twoWaves = {
  namespaceSelector: { matchLabels: { app: 'shop' } },
  waves: [
    { name: 'canary', locationSelectors: [{ matchLabels: { ring: 'canary' } }] },
    { name: 'rest' },
  ],
}

let hub: TestHub
beforeAll(async () => {
  hub = await createTestHub()
  const ws = { apiVersion: 'tenancy.kcp.io/v1alpha1', kind: 'Workspace', metadata: { name: 'ro' } }
  expect(
    (await hub.call('POST', '/clusters/root/apis/tenancy.kcp.io/v1alpha1/workspaces', ws)).status
  ).toBe(201)
})
afterAll(() => hub.close())

describe('the Rollout kind', () => {
  it('is in discovery, cluster-scoped with a status subresource, and in OpenAPI', async () => {
    const res = await hub.call('GET', DISCOVERY)
    const names = res.body.resources.map((r: { name: string }) => r.name)
    expect(names).toEqual(expect.arrayContaining(['rollouts', 'rollouts/status']))
    const main = res.body.resources.find((r: { name: string }) => r.name === 'rollouts')
    expect(main).toMatchObject({ kind: 'Rollout', namespaced: false, singularName: 'rollout' })
    const index = await hub.call('GET', '/clusters/root:ro/openapi/v3')
    const doc = await hub.call(
      'GET',
      index.body.paths['apis/edge.kcp.io/v1alpha1'].serverRelativeURL
    )
    const schemas = Object.values(doc.body.components.schemas) as any[]
    const kind = schemas.find((s) =>
      (s['x-kubernetes-group-version-kind'] ?? []).some((g: any) => g.kind === 'Rollout')
    )
    expect(kind.description).toContain('waves')
    expect(kind.properties.spec.properties.waves.description).toBeTruthy()
    expect(kind.properties.status.properties.phase.description).toContain('WaitingForSoak')
  })

  it('refuses a bad percentage and an unknown policy, storing nothing', async () => {
    const bad = rollout('bad', {
      waves: [{ name: 'all', maxEdges: '120%' }],
      gate: { staleEdges: 'Sometimes' },
    })
    const res = await hub.call('POST', ROS, bad)
    expect(res.status).toBe(422)
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'Invalid', code: 422 })
    expect(res.body.details.causes).toEqual([
      expect.objectContaining({ reason: 'FieldValueInvalid', field: 'spec.waves[0].maxEdges' }),
      expect.objectContaining({ reason: 'FieldValueNotSupported', field: 'spec.gate.staleEdges' }),
    ])
    expect(res.body.message).toContain(
      'spec.gate.staleEdges: Unsupported value: "Sometimes": supported values: "Skip", "Wait", "Fail"'
    )
    expect((await hub.call('GET', `${ROS}/bad`)).status).toBe(404)
  })

  it('refuses waves that can never be reached and duplicate names, on create and update', async () => {
    const unreachable = rollout('bad', {
      waves: [{ name: 'all' }, { name: 'all', locationSelectors: [{}] }],
    })
    const res = await hub.call('POST', ROS, unreachable)
    expect(res.status).toBe(422)
    const fields = res.body.details.causes.map((c: { field: string }) => c.field)
    expect(fields).toEqual(['spec.waves[0].locationSelectors', 'spec.waves[1].name'])
    expect(res.body.message).toContain('spec.waves[1].name: Duplicate value: "all"')
    expect((await hub.call('GET', `${ROS}/bad`)).status).toBe(404)
    expect((await hub.call('POST', ROS, rollout('later', twoWaves))).status).toBe(201)
    const patch = await hub.call(
      'PATCH',
      `${ROS}/later`,
      { spec: { approvals: [{ wave: 'nowhere', revision: 2 }] } },
      { contentType: 'application/merge-patch+json' }
    )
    expect(patch.status).toBe(422)
    expect(patch.body.details.causes[0].field).toBe('spec.approvals[0].wave')
    expect((await hub.call('DELETE', `${ROS}/later`)).status).toBe(200)
  })

  it('keeps the status out of spec writes and the spec out of status writes', async () => {
    const created = await hub.call('POST', ROS, rollout('shop', twoWaves))
    expect(created.status).toBe(201)
    const status = {
      phase: 'Progressing',
      revision: 2,
      completedRevision: 1,
      currentWave: 'canary',
    }
    const withStatus = { ...created.body, status }
    expect((await hub.call('PUT', `${ROS}/shop`, withStatus)).body.status).toBeUndefined()
    const current = (await hub.call('GET', `${ROS}/shop`)).body
    const written = await hub.call('PUT', `${ROS}/shop/status`, {
      ...current,
      spec: { ...twoWaves, paused: true },
      status,
    })
    expect(written.status).toBe(200)
    expect(written.body.status).toEqual(status)
    expect(written.body.spec.paused).toBeUndefined()
  })

  it('prints REVISION, WAVE, PHASE and READY in a Table', async () => {
    const current = (await hub.call('GET', `${ROS}/shop`)).body
    const waves = [
      { name: 'canary', revision: 2, edges: 2, ready: 1, failed: 0, stale: 0, pending: 1 },
      { name: 'rest', revision: 1, edges: 8, ready: 8, failed: 0, stale: 0, pending: 0 },
    ]
    await hub.call('PUT', `${ROS}/shop/status`, {
      ...current,
      status: { ...current.status, waves },
    })
    const res = await hub.call('GET', ROS, undefined, { accept: TABLE })
    const cols = res.body.columnDefinitions.map((c: { name: string }) => c.name)
    expect(cols).toEqual(['Name', 'Revision', 'Wave', 'Phase', 'Ready', 'Age'])
    expect(res.body.rows[0].cells.slice(0, 5)).toEqual(['shop', 2, 'canary', 'Progressing', '9/10'])
  })
})
