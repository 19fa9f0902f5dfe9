/**
 * No write may change what an object is: kind, apiVersion, name, namespace and uid are refused
 * through every patch type, apply and update (400 or 422 as kube answers), a deletionTimestamp
 * cannot be set by a write, a creationTimestamp sent by the client is ignored, metadata of the
 * wrong shape is refused, and an update without resourceVersion is 422 for kinds kube only updates
 * conditionally. After each refusal the stored object is unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
let before: KubeObject
const CMS = '/api/v1/namespaces/default/configmaps'
const CM = `${CMS}/id`
const MERGE = { contentType: 'application/merge-patch+json' }
const JSONP = { contentType: 'application/json-patch+json' }
const SMP = { contentType: 'application/strategic-merge-patch+json' }
const APPLY = { contentType: 'application/apply-patch+yaml' }

beforeAll(async () => {
  hub = await createTestHub()
  await hub.call('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'other' },
  })
  const res = await hub.call('POST', CMS, {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'id', labels: { a: 'b' } },
    data: { k: 'v' },
  })
  before = res.body
})
afterAll(() => hub.close())

const cases: [string, string, unknown, { contentType: string }, number][] = [
  ['JSON patch replace /kind', CM, [{ op: 'replace', path: '/kind', value: 'Secret' }], JSONP, 400],
  ['JSON patch remove /kind', CM, [{ op: 'remove', path: '/kind' }], JSONP, 400],
  ['merge patch kind', CM, { kind: 'Secret' }, MERGE, 400],
  ['strategic merge patch kind', CM, { kind: 'Secret' }, SMP, 400],
  ['merge patch apiVersion', CM, { apiVersion: 'apps/v1' }, MERGE, 400],
  ['JSON patch apiVersion', CM, [{ op: 'replace', path: '/apiVersion', value: 'v2' }], JSONP, 400],
  ['merge patch metadata.name', CM, { metadata: { name: 'other' } }, MERGE, 400],
  [
    'JSON patch metadata.name',
    CM,
    [{ op: 'replace', path: '/metadata/name', value: 'x' }],
    JSONP,
    400,
  ],
  ['merge patch metadata.namespace', CM, { metadata: { namespace: 'other' } }, MERGE, 400],
  ['merge patch metadata.uid', CM, { metadata: { uid: 'f00' } }, MERGE, 422],
  [
    'merge patch deletionTimestamp',
    CM,
    { metadata: { deletionTimestamp: '2020-01-01T00:00:00Z' } },
    MERGE,
    422,
  ],
  ['merge patch annotations not a map', CM, { metadata: { annotations: 'notamap' } }, MERGE, 422],
  ['merge patch labels not a map', CM, { metadata: { labels: ['x'] } }, MERGE, 422],
  [
    'apply with another kind',
    `${CM}?fieldManager=t`,
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'id' } },
    APPLY,
    400,
  ],
  [
    'apply with another name',
    `${CM}?fieldManager=t`,
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'other' } },
    APPLY,
    400,
  ],
]

describe('identity-changing patches', () => {
  it.for(cases)('%s is refused and changes nothing', async ([_n, path, body, opts, code]) => {
    const res = await hub.call('PATCH', path, body, opts)
    expect(res.status).toBe(code)
    expect(res.body.kind).toBe('Status')
    const after = (await hub.call('GET', CM)).body
    expect(after).toEqual(before)
    expect((await hub.call('GET', `${CMS.replace('default', 'other')}/id`)).status).toBe(404)
  })

  it('an apply pinning a stale resourceVersion is a conflict', async () => {
    const res = await hub.call(
      'PATCH',
      `${CM}?fieldManager=t`,
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'id', resourceVersion: '1' },
        data: { k: 'stale' },
      },
      APPLY
    )
    expect(res.status).toBe(409)
    expect((await hub.call('GET', CM)).body).toEqual(before)
  })

  it('an update with another kind, uid or namespace is refused', async () => {
    const kind = await hub.call('PUT', CM, { ...before, kind: 'Secret' })
    expect(kind.status).toBe(400)
    const uid = await hub.call('PUT', CM, { ...before, metadata: { ...before.metadata, uid: 'x' } })
    expect(uid.status).toBe(422)
    expect(uid.body.details.causes[0].field).toBe('metadata.uid')
    const ns = await hub.call('PUT', CM, {
      ...before,
      metadata: { ...before.metadata, namespace: 'other' },
    })
    expect(ns.status).toBe(400)
    expect((await hub.call('GET', CM)).body).toEqual(before)
  })
})

describe('server-owned metadata', () => {
  it('a create whose annotations are not a map is refused and stores nothing', async () => {
    const res = await hub.call('POST', CMS, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'badmeta', annotations: 'notamap' },
    })
    // kube's decoder refuses it before validation: 400, not 422.
    expect(res.status).toBe(400)
    expect((await hub.call('GET', `${CMS}/badmeta`)).status).toBe(404)
  })

  it('a creationTimestamp sent in a patch is ignored', async () => {
    const res = await hub.call(
      'PATCH',
      CM,
      { metadata: { creationTimestamp: '1999-01-01T00:00:00Z', labels: { c: 'd' } } },
      MERGE
    )
    expect(res.status).toBe(200)
    expect(res.body.metadata.creationTimestamp).toBe(before.metadata.creationTimestamp)
    expect(res.body.metadata.labels).toEqual({ a: 'b', c: 'd' })
    before = res.body
  })

  it('an update without resourceVersion is unconditional for a ConfigMap', async () => {
    const { resourceVersion: _rv, ...meta } = before.metadata
    const res = await hub.call('PUT', CM, { ...before, metadata: meta, data: { k: 'w' } })
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ k: 'w' })
    const empty = await hub.call('PUT', CM, {
      ...res.body,
      metadata: { ...res.body.metadata, resourceVersion: '' },
      data: { k: 'x' },
    })
    expect(empty.status).toBe(200)
    before = empty.body
  })

  it('an update without resourceVersion is 422 for a kind kube updates only conditionally', async () => {
    const path = '/apis/edge.kcp.io/v1alpha1/edgeplacements'
    const created = await hub.call('POST', path, {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'EdgePlacement',
      metadata: { name: 'p' },
      spec: { locationSelectors: [{ matchLabels: { env: 'prod' } }] },
    })
    expect(created.status).toBe(201)
    const { resourceVersion: _rv, ...meta } = created.body.metadata
    const res = await hub.call('PUT', `${path}/p`, { ...created.body, metadata: meta })
    expect(res.status).toBe(422)
    expect(res.body.message).toContain(
      'metadata.resourceVersion: Invalid value: 0x0: must be specified for an update'
    )
    expect((await hub.call('GET', `${path}/p`)).body).toEqual(created.body)
  })

  it('no new finalizer on an object being deleted', async () => {
    const res = await hub.call('POST', CMS, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'fin', finalizers: ['example.com/a'] },
    })
    expect(res.status).toBe(201)
    expect((await hub.call('DELETE', `${CMS}/fin`)).status).toBe(200)
    const add = await hub.call(
      'PATCH',
      `${CMS}/fin`,
      { metadata: { finalizers: ['example.com/a', 'example.com/b'] } },
      MERGE
    )
    expect(add.status).toBe(422)
    const drop = await hub.call('PATCH', `${CMS}/fin`, { metadata: { finalizers: null } }, MERGE)
    expect(drop.status).toBe(200)
    expect((await hub.call('GET', `${CMS}/fin`)).status).toBe(404)
  })
})

describe('subresources and apply', () => {
  const DEPLOYS = '/apis/apps/v1/namespaces/default/deployments'
  let deploy: KubeObject
  beforeAll(async () => {
    const res = await hub.call('POST', DEPLOYS, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'c', image: 'nginx' }] },
        },
      },
    })
    expect(res.status).toBe(201)
    deploy = res.body
  })
  const scalePath = `${DEPLOYS}/web/scale`
  const scale = (over: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) => ({
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata: { name: 'web', namespace: 'default', ...meta },
    spec: { replicas: 2 },
    ...over,
  })

  it.each([
    ['another kind', scale({ kind: 'Deployment' }), 400],
    ['another apiVersion', scale({ apiVersion: 'apps/v1' }), 400],
    ['another name', scale({}, { name: 'other' }), 400],
    ['no name', scale({ metadata: {} }), 400],
    ['another namespace', scale({}, { namespace: 'other' }), 400],
    ['another uid', scale({}, { uid: 'not-its-uid' }), 409],
    ['replicas past int32', scale({ spec: { replicas: 2 ** 63 } }), 422],
  ])('a Scale PUT with %s is refused', async (_n, body, code) => {
    const res = await hub.call('PUT', scalePath, body)
    expect(res.status).toBe(code)
    expect((await hub.call('GET', `${DEPLOYS}/web`)).body.spec.replicas).toBe(1)
  })

  it('Scale patches cannot change its kind or the uid, and a good one scales', async () => {
    expect((await hub.call('PATCH', scalePath, { kind: 'Secret' }, MERGE)).status).toBe(400)
    const uid = await hub.call(
      'PATCH',
      scalePath,
      [{ op: 'replace', path: '/metadata/uid', value: 'x' }],
      JSONP
    )
    expect(uid.status).toBe(409)
    const ok = await hub.call('PATCH', scalePath, { spec: { replicas: 3 } }, MERGE)
    expect(ok.status).toBe(200)
    expect((await hub.call('GET', `${DEPLOYS}/web`)).body.spec.replicas).toBe(3)
  })

  it('a status write cannot change the uid or hold malformed metadata', async () => {
    const current = (await hub.call('GET', `${DEPLOYS}/web`)).body as KubeObject
    const uid = await hub.call('PUT', `${DEPLOYS}/web/status`, {
      ...current,
      metadata: { ...current.metadata, uid: 'x' },
    })
    expect(uid.status).toBe(422)
    const refs = await hub.call('PUT', `${DEPLOYS}/web/status`, {
      ...current,
      metadata: { ...current.metadata, ownerReferences: [{ uid: 5 }] },
    })
    // Malformed metadata fails kube's decoding of the body: 400.
    expect(refs.status).toBe(400)
    const fields = await hub.call('PUT', `${DEPLOYS}/web/status`, {
      ...current,
      metadata: { ...current.metadata, managedFields: 'x' },
    })
    expect(fields.status).toBe(400)
    expect((await hub.call('GET', `${DEPLOYS}/web`)).body.metadata.uid).toBe(deploy.metadata.uid)
  })

  it('an apply naming another uid is refused; a PUT with null metadata too', async () => {
    const res = await hub.call(
      'PATCH',
      `${CM}?fieldManager=t`,
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'id', uid: 'other-uid' } },
      APPLY
    )
    expect(res.status).toBe(422)
    const nullMeta = await hub.call('PUT', CM, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: null,
    })
    expect(nullMeta.status).toBe(400)
    expect((await hub.call('GET', CM)).body).toEqual(before)
  })
})
