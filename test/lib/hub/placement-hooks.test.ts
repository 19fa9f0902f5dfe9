/**
 * An EdgePlacement's server dry run over the HTTP API answers with `status.preview` (what the
 * placement would do, lib/placement/preview.ts) and stores nothing: create (`kubectl create
 * --dry-run=server`), update (PUT), JSON merge patch and server-side apply (`kubectl apply
 * --dry-run=server`), also one that changes nothing. No real write keeps a preview: a create
 * drops its status, and an update or apply of the status subresource carrying one has it
 * dropped, unowned, as kube resets a server-owned field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHubClient, type HubClient } from '../../../lib/hub/client.ts'
import type { JsonObject, KubeObject } from '../../../lib/kube/types.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'
import {
  buildPreviewWorld,
  CONFIGMAPS,
  EDGES,
  placement,
  WORKLOAD,
} from '../../helpers/preview-world.ts'

let hub: TestHub
let client: HubClient
const EPS = `/clusters/${WORKLOAD}/apis/edge.kcp.io/v1alpha1/edgeplacements`
const SLICES = `/clusters/${WORKLOAD}/apis/edge.kcp.io/v1alpha1/singleplacementslices`
const MERGE = 'application/merge-patch+json'
const APPLY = 'application/apply-patch+yaml'

beforeAll(async () => {
  hub = await createTestHub()
  client = createHubClient(hub.deps, { fieldManager: 'test' })
  await buildPreviewWorld(client)
})
afterAll(() => hub.close())

/** The newest resourceVersion of the store: any write moves it. */
const newest = async () =>
  (await hub.call('GET', '/api/v1/namespaces')).body.metadata.resourceVersion as string

const previewOf = (body: KubeObject) => (body.status as JsonObject | undefined)?.preview as any

function expectPreview(p: any): void {
  expect(p.locations.count).toBe(EDGES - 1)
  expect(p.locations.items).toHaveLength(20)
  expect(p.destinations.count).toBe(EDGES)
  expect(p.destinations.items).toHaveLength(20)
  for (const d of p.destinations.items) {
    expect(d.objects.count).toBe(CONFIGMAPS + 1)
    expect(d.objects.items).toHaveLength(5)
  }
  expect(p.objects.count).toBe(CONFIGMAPS)
  expect(p.unselectedLocationCount).toBe(2)
  expect(p.unselectedLocations.map((u: JsonObject) => u.reason)).toEqual([
    'NoMailbox',
    'SelectorMismatch',
  ])
}

describe('a dry run of an EdgePlacement', () => {
  it('create answers with the preview and stores nothing', async () => {
    const at = await newest()
    const res = await hub.call('POST', `${EPS}?dryRun=All`, placement('dry'))
    expect(res.status).toBe(201)
    expectPreview(previewOf(res.body))
    expect((await hub.call('GET', `${EPS}/dry`)).status).toBe(404)
    expect((await hub.call('GET', SLICES)).body.items).toEqual([])
    expect(await newest()).toBe(at)
  })

  it('a real create keeps no preview, whatever the body says', async () => {
    const body = {
      ...placement('real'),
      status: { preview: { bogus: true }, matchingLocationCount: 9 },
    }
    const res = await hub.call('POST', EPS, body)
    expect(res.status).toBe(201)
    expect(res.body).not.toHaveProperty('status')
    expect((await hub.call('GET', `${EPS}/real`)).body).not.toHaveProperty('status')
  })

  it('update, merge patch and apply answer with the preview and store nothing', async () => {
    const stored = (await hub.call('GET', `${EPS}/real`)).body as KubeObject
    const at = await newest()
    const changed = { ...stored, metadata: { ...stored.metadata, labels: { dry: 'run' } } }
    const put = await hub.call('PUT', `${EPS}/real?dryRun=All`, changed)
    expect(put.status).toBe(200)
    expect(put.body.metadata.labels).toEqual({ dry: 'run' })
    expectPreview(previewOf(put.body))
    const same = await hub.call('PUT', `${EPS}/real?dryRun=All`, stored)
    expect(same.status).toBe(200)
    expectPreview(previewOf(same.body))
    const merge = await hub.call(
      'PATCH',
      `${EPS}/real?dryRun=All`,
      JSON.stringify({ metadata: { annotations: { a: 'b' } } }),
      { contentType: MERGE }
    )
    expect(merge.status).toBe(200)
    expectPreview(previewOf(merge.body))
    const apply = await hub.call(
      'PATCH',
      `${EPS}/real?dryRun=All&fieldManager=kubectl`,
      JSON.stringify(placement('real')),
      { contentType: APPLY }
    )
    expect(apply.status).toBe(200)
    expectPreview(previewOf(apply.body))
    // An apply of an absent object is a create: a dry run of it previews as well.
    const absent = await hub.call(
      'PATCH',
      `${EPS}/fresh?dryRun=All&fieldManager=kubectl`,
      JSON.stringify(placement('fresh')),
      { contentType: APPLY }
    )
    expect(absent.status).toBe(201)
    expectPreview(previewOf(absent.body))
    expect(await newest()).toBe(at)
    const now = (await hub.call('GET', `${EPS}/real`)).body as KubeObject
    expect(now.metadata.resourceVersion).toBe(stored.metadata.resourceVersion)
    expect(now).not.toHaveProperty('status')
  })

  it('a status write carrying a preview has it dropped, unowned', async () => {
    const stored = (await hub.call('GET', `${EPS}/real`)).body as KubeObject
    const status = { matchingLocationCount: 3, preview: { locations: { count: 1, items: [] } } }
    const put = await hub.call('PUT', `${EPS}/real/status`, { ...stored, status })
    expect(put.status).toBe(200)
    expect(put.body.status).toEqual({ matchingLocationCount: 3 })
    const apply = await hub.call(
      'PATCH',
      `${EPS}/real/status?fieldManager=mgr`,
      JSON.stringify({
        apiVersion: 'edge.kcp.io/v1alpha1',
        kind: 'EdgePlacement',
        metadata: { name: 'real' },
        status: { specGeneration: 1, preview: { bogus: 1 } },
      }),
      { contentType: APPLY }
    )
    expect(apply.status).toBe(200)
    const got = (await hub.call('GET', `${EPS}/real`)).body as KubeObject
    expect(got.status).toEqual({ matchingLocationCount: 3, specGeneration: 1 })
    const mgr = got.metadata.managedFields?.find((m) => m.manager === 'mgr')
    expect(mgr?.fieldsV1).toEqual({ 'f:status': { 'f:specGeneration': {} } })
  })

  it('leaves other kinds alone', async () => {
    const res = await hub.call(
      'POST',
      `/clusters/${WORKLOAD}/api/v1/namespaces/app/configmaps?dryRun=All`,
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dry' } }
    )
    expect(res.status).toBe(201)
    expect(res.body).not.toHaveProperty('status')
  })
})
