/**
 * Server-side apply to the status subresource, over the HTTP API and the in-process client: the
 * applied status fields are recorded as the manager's (subresource `status`), fields it applied
 * before and leaves out are removed, other managers' fields stay, an apply that changes nothing
 * keeps the resourceVersion, a configuration's spec is neither written nor owned, conditions of
 * an EdgePlacement are owned per type, and an apply answers undefined for an absent or re-created
 * object.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EDGE_PLACEMENTS } from '../../../lib/apis/gvr.ts'
import type { HubClient } from '../../../lib/hub/client.ts'
import type { JsonObject, KubeObject, ManagedFieldsEntry } from '../../../lib/kube/types.ts'
import type { TestHub } from '../../helpers/hub.ts'
import { createProdPlacement, hubWithClient } from '../../helpers/hub-client.ts'

let hub: TestHub
let client: HubClient
const EPS = '/apis/edge.kcp.io/v1alpha1/edgeplacements'
const APPLY = 'application/apply-patch+yaml'

beforeAll(async () => {
  ;({ hub, client } = await hubWithClient())
})
afterAll(async () => {
  await hub?.close()
})

const create = (name: string) => createProdPlacement(client, name)

const config = (name: string, status: JsonObject, more: JsonObject = {}) => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'EdgePlacement',
  metadata: { name },
  status,
  ...more,
})

const applyStatus = (name: string, manager: string, body: unknown) =>
  hub.call('PATCH', `${EPS}/${name}/status?fieldManager=${manager}`, JSON.stringify(body), {
    contentType: APPLY,
  })

const entry = (obj: KubeObject, manager: string): ManagedFieldsEntry | undefined =>
  obj.metadata.managedFields?.find((m) => m.manager === manager)

const cond = (type: string, status: string, message = 'm') => ({
  type,
  status,
  reason: 'R',
  message,
})

describe('server-side apply to /status', () => {
  it('records the fields as the manager’s, with subresource status', async () => {
    await create('ep-own')
    const res = await applyStatus('ep-own', 'mgr-a', config('ep-own', { matchingLocationCount: 3 }))
    expect(res.status).toBe(200)
    expect(res.body.status).toEqual({ matchingLocationCount: 3 })
    expect(entry(res.body, 'mgr-a')).toMatchObject({
      operation: 'Apply',
      subresource: 'status',
      fieldsV1: { 'f:status': { 'f:matchingLocationCount': {} } },
    })
    const stored = await client.get('root', EDGE_PLACEMENTS, 'ep-own')
    expect(stored?.metadata.managedFields).toEqual(res.body.metadata.managedFields)
  })

  it('removes what the manager stops applying and keeps the other managers’ fields', async () => {
    await create('ep-drop')
    await applyStatus(
      'ep-drop',
      'mgr-a',
      config('ep-drop', { specGeneration: 1, matchingLocationCount: 2 })
    )
    await applyStatus('ep-drop', 'mgr-b', config('ep-drop', { conditions: [cond('B', 'True')] }))
    const res = await applyStatus('ep-drop', 'mgr-a', config('ep-drop', { specGeneration: 1 }))
    expect(res.status).toBe(200)
    expect(res.body.status).toEqual({ specGeneration: 1, conditions: [cond('B', 'True')] })
  })

  it('owns conditions per type: two managers, no conflict, each drops only its own', async () => {
    await create('ep-cond')
    await applyStatus('ep-cond', 'mgr-a', config('ep-cond', { conditions: [cond('A', 'True')] }))
    const b = await applyStatus(
      'ep-cond',
      'mgr-b',
      config('ep-cond', { conditions: [cond('B', 'False')] })
    )
    expect(b.status).toBe(200)
    expect(b.body.status.conditions).toEqual([cond('A', 'True'), cond('B', 'False')])
    const dropped = await applyStatus('ep-cond', 'mgr-a', config('ep-cond', { conditions: [] }))
    expect(dropped.body.status.conditions).toEqual([cond('B', 'False')])
  })

  it('answers 409 for another manager’s field without force, and takes it over with force', async () => {
    await create('ep-force')
    await applyStatus('ep-force', 'mgr-a', config('ep-force', { matchingLocationCount: 1 }))
    const body = JSON.stringify(config('ep-force', { matchingLocationCount: 5 }))
    const path = `${EPS}/ep-force/status?fieldManager=mgr-b`
    const refused = await hub.call('PATCH', path, body, { contentType: APPLY })
    expect(refused.status).toBe(409)
    const forced = await hub.call('PATCH', `${path}&force=true`, body, { contentType: APPLY })
    expect(forced.status).toBe(200)
    expect(forced.body.status.matchingLocationCount).toBe(5)
    expect(entry(forced.body, 'mgr-a')).toBeUndefined()
  })

  it('writes nothing for an apply that changes nothing', async () => {
    await create('ep-noop')
    const first = await applyStatus('ep-noop', 'mgr-a', config('ep-noop', { specGeneration: 1 }))
    const again = await applyStatus('ep-noop', 'mgr-a', config('ep-noop', { specGeneration: 1 }))
    expect(again.body.metadata.resourceVersion).toBe(first.body.metadata.resourceVersion)
    const viaClient = await client.applyStatus(
      'root',
      EDGE_PLACEMENTS,
      config('ep-noop', { specGeneration: 1 }),
      { fieldManager: 'mgr-a' }
    )
    expect(viaClient?.written).toBe(false)
    expect(viaClient?.object.metadata.resourceVersion).toBe(first.body.metadata.resourceVersion)
  })

  it('neither writes nor owns the spec or metadata a status apply carries', async () => {
    const created = await create('ep-spec')
    const res = await applyStatus(
      'ep-spec',
      'mgr-a',
      config(
        'ep-spec',
        { specGeneration: 1 },
        { spec: { locationSelectors: [] }, metadata: { name: 'ep-spec', labels: { x: 'y' } } }
      )
    )
    expect(res.status).toBe(200)
    expect(res.body.spec).toEqual(created.spec)
    expect(res.body.metadata.labels).toBeUndefined()
    expect(res.body.metadata.generation).toBe(created.metadata.generation)
    expect(entry(res.body, 'mgr-a')?.fieldsV1).toEqual({ 'f:status': { 'f:specGeneration': {} } })
  })

  it('answers undefined for an absent object and for another uid', async () => {
    const absent = await client.applyStatus(
      'root',
      EDGE_PLACEMENTS,
      config('ep-none', { specGeneration: 1 }),
      { fieldManager: 'mgr-a' }
    )
    expect(absent).toBeUndefined()
    await create('ep-uid')
    const other = config(
      'ep-uid',
      { specGeneration: 1 },
      { metadata: { name: 'ep-uid', uid: 'x' } }
    )
    const reborn = await client.applyStatus('root', EDGE_PLACEMENTS, other, {
      fieldManager: 'mgr-a',
    })
    expect(reborn).toBeUndefined()
    expect((await client.get('root', EDGE_PLACEMENTS, 'ep-uid'))?.status).toBeUndefined()
  })
})
