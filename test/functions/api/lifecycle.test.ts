import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resumeTerminations } from '../../../lib/hub/resume-terminations.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
const NS = '/clusters/root/api/v1/namespaces'
const CMS = `${NS}/life/configmaps`
const DEPLOYS = '/clusters/root/apis/apps/v1/namespaces/life/deployments'

beforeAll(async () => {
  hub = await createTestHub()
  await hub.call('POST', NS, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'life' } })
})
afterAll(() => hub.close())

const deployment = (name: string, image = 'nginx:1.25') => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, labels: { app: name } },
  spec: {
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: {
        containers: [
          { name: 'app', image },
          { name: 'side', image: 'busybox' },
        ],
      },
    },
  },
})

describe('generation and status', () => {
  it('moves generation only on spec changes and keeps status out of main-resource writes', async () => {
    const c = await hub.call('POST', DEPLOYS, { ...deployment('gen'), status: { replicas: 9 } })
    expect(c.status).toBe(201)
    expect(c.body.metadata.generation).toBe(1)
    expect(c.body.status).toBeUndefined()
    const label = await hub.call(
      'PATCH',
      `${DEPLOYS}/gen`,
      { metadata: { labels: { x: 'y' } } },
      { contentType: 'application/merge-patch+json' }
    )
    expect(label.body.metadata.generation).toBe(1)
    const spec = await hub.call(
      'PATCH',
      `${DEPLOYS}/gen`,
      { spec: { replicas: 3 } },
      { contentType: 'application/merge-patch+json' }
    )
    expect(spec.body.metadata.generation).toBe(2)
    const st = await hub.call(
      'PATCH',
      `${DEPLOYS}/gen/status`,
      { status: { replicas: 3, observedGeneration: 2 }, spec: { replicas: 7 } },
      { contentType: 'application/merge-patch+json' }
    )
    expect(st.status).toBe(200)
    expect(st.body.status).toEqual({ replicas: 3, observedGeneration: 2 })
    expect(st.body.spec.replicas).toBe(3)
    expect(st.body.metadata.generation).toBe(2)
  })
})

describe('patch types', () => {
  it('merges containers by name with a strategic merge patch', async () => {
    await hub.call('POST', DEPLOYS, deployment('smp'))
    const res = await hub.call(
      'PATCH',
      `${DEPLOYS}/smp`,
      { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:1.26' }] } } } },
      { contentType: 'application/strategic-merge-patch+json' }
    )
    expect(res.status).toBe(200)
    // (with kube's container defaults, which every write fills in)
    expect(res.body.spec.template.spec.containers).toMatchObject([
      { name: 'app', image: 'nginx:1.26', imagePullPolicy: 'IfNotPresent' },
      { name: 'side', image: 'busybox', imagePullPolicy: 'Always' },
    ])
  })
  it('applies a JSON patch, and a failed test op changes nothing', async () => {
    await hub.call('POST', CMS, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'jp' },
      data: { a: '1' },
    })
    const ok = await hub.call('PATCH', `${CMS}/jp`, [{ op: 'add', path: '/data/b', value: '2' }], {
      contentType: 'application/json-patch+json',
    })
    expect(ok.body.data).toEqual({ a: '1', b: '2' })
    const bad = await hub.call(
      'PATCH',
      `${CMS}/jp`,
      [
        { op: 'test', path: '/data/a', value: 'nope' },
        { op: 'remove', path: '/data/a' },
      ],
      { contentType: 'application/json-patch+json' }
    )
    expect(bad.status).toBe(422)
    expect((await hub.call('GET', `${CMS}/jp`)).body.data).toEqual({ a: '1', b: '2' })
  })
  it('refuses strategic merge for custom resources and unknown patch types', async () => {
    const ep = {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'EdgePlacement',
      metadata: { name: 'p' },
      spec: {},
    }
    await hub.call('POST', '/clusters/root/apis/edge.kcp.io/v1alpha1/edgeplacements', ep)
    const smp = await hub.call(
      'PATCH',
      '/clusters/root/apis/edge.kcp.io/v1alpha1/edgeplacements/p',
      { spec: {} },
      { contentType: 'application/strategic-merge-patch+json' }
    )
    expect(smp.status).toBe(415)
    const weird = await hub.call('PATCH', `${CMS}/jp`, '{}', { contentType: 'text/plain' })
    expect(weird.status).toBe(415)
  })
  it('server-side applies: creates, records the manager, then updates', async () => {
    const cfg = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'ssa', namespace: 'life' },
      data: { a: '1', b: '2' },
    }
    const created = await hub.call('PATCH', `${CMS}/ssa?fieldManager=tester`, cfg, {
      contentType: 'application/apply-patch+yaml',
    })
    expect(created.status).toBe(201)
    expect(created.body.metadata.managedFields.map((m: any) => m.manager)).toContain('tester')
    const updated = await hub.call(
      'PATCH',
      `${CMS}/ssa?fieldManager=tester`,
      { ...cfg, data: { a: '1' } },
      { contentType: 'application/apply-patch+yaml' }
    )
    expect(updated.status).toBe(200)
    expect(updated.body.data).toEqual({ a: '1' })
  })
})

describe('deletion', () => {
  it('holds an object with finalizers until they are removed', async () => {
    await hub.call('POST', CMS, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'fin', finalizers: ['example.com/hold'] },
    })
    const del = await hub.call('DELETE', `${CMS}/fin`)
    expect(del.status).toBe(200)
    const held = await hub.call('GET', `${CMS}/fin`)
    expect(held.body.metadata.deletionTimestamp).toBeTruthy()
    await hub.call(
      'PATCH',
      `${CMS}/fin`,
      { metadata: { finalizers: null } },
      { contentType: 'application/merge-patch+json' }
    )
    expect((await hub.call('GET', `${CMS}/fin`)).status).toBe(404)
  })
  it('garbage-collects dependents in the background', async () => {
    const owner = await hub.call('POST', CMS, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'owner' },
    })
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.body.metadata.uid }
    await hub.call('POST', CMS, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'dep', ownerReferences: [ref] },
    })
    await hub.call('DELETE', `${CMS}/owner`, { propagationPolicy: 'Background' })
    await hub.settle()
    expect((await hub.call('GET', `${CMS}/dep`)).status).toBe(404)
  })
  it('orphans dependents when asked', async () => {
    const owner = await hub.call('POST', CMS, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'owner2' },
    })
    const ref = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name: 'owner2',
      uid: owner.body.metadata.uid,
    }
    await hub.call('POST', CMS, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'dep2', ownerReferences: [ref] },
    })
    await hub.call('DELETE', `${CMS}/owner2`, { propagationPolicy: 'Orphan' })
    await hub.settle()
    const dep = await hub.call('GET', `${CMS}/dep2`)
    expect(dep.status).toBe(200)
    expect(dep.body.metadata.ownerReferences).toBeUndefined()
  })
  it('deletes a namespace with its contents, waiting for finalizers inside it', async () => {
    await hub.call('POST', NS, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'doomed' },
    })
    await hub.call('POST', `${NS}/doomed/configmaps`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c' },
    })
    const held = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'held', finalizers: ['x.io/wait'] },
    }
    await hub.call('POST', `${NS}/doomed/configmaps`, held)
    const del = await hub.call('DELETE', `${NS}/doomed`)
    expect(del.body.status.phase).toBe('Terminating')
    await hub.settle()
    const create = await hub.call('POST', `${NS}/doomed/configmaps`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'late' },
    })
    expect(create.status).toBe(403)
    // kube's namespace lifecycle answer: clients test for the NamespaceTerminating cause.
    expect(create.body.details).toMatchObject({
      name: 'late',
      kind: 'configmaps',
      causes: [
        {
          reason: 'NamespaceTerminating',
          message: 'namespace doomed is being terminated',
          field: 'metadata.namespace',
        },
      ],
    })
    expect((await hub.call('GET', `${NS}/doomed/configmaps/c`)).status).toBe(404)
    expect((await hub.call('GET', `${NS}/doomed`)).body.status.phase).toBe('Terminating')
    await hub.call(
      'PATCH',
      `${NS}/doomed/configmaps/held`,
      { metadata: { finalizers: null } },
      { contentType: 'application/merge-patch+json' }
    )
    expect(await resumeTerminations(hub.deps, 'http://hub.test')).toBe(1)
    expect((await hub.call('GET', `${NS}/doomed`)).status).toBe(404)
  })
})

describe('lists', () => {
  it('filters by label and field selectors and pages with limit/continue', async () => {
    for (const [n, tier] of [
      ['l1', 'web'],
      ['l2', 'db'],
      ['l3', 'web'],
      ['l4', 'web'],
    ])
      await hub.call('POST', `${NS}/life/secrets`, {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: n, labels: { tier: tier ?? '' } },
      })
    const web = await hub.call('GET', `${NS}/life/secrets?labelSelector=tier%20in%20(web)`)
    expect(web.body.items.map((i: any) => i.metadata.name)).toEqual(['l1', 'l3', 'l4'])
    const byName = await hub.call('GET', `${NS}/life/secrets?fieldSelector=metadata.name%3Dl2`)
    expect(byName.body.items.map((i: any) => i.metadata.name)).toEqual(['l2'])
    const page1 = await hub.call('GET', `${NS}/life/secrets?labelSelector=tier%3Dweb&limit=2`)
    expect(page1.body.items).toHaveLength(2)
    expect(page1.body.metadata.continue).toBeTruthy()
    const page2 = await hub.call(
      'GET',
      `${NS}/life/secrets?labelSelector=tier%3Dweb&limit=2&continue=${encodeURIComponent(page1.body.metadata.continue)}`
    )
    expect(page2.body.items.map((i: any) => i.metadata.name)).toEqual(['l4'])
    const bad = await hub.call('GET', `${NS}/life/secrets?fieldSelector=spec.bogus%3D1`)
    expect(bad.status).toBe(400)
  })
  it('does not persist with dryRun=All', async () => {
    const res = await hub.call('POST', `${CMS}?dryRun=All`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'dry' },
    })
    expect(res.status).toBe(201)
    expect((await hub.call('GET', `${CMS}/dry`)).status).toBe(404)
  })
})

describe('fieldValidation', () => {
  it('rejects unknown fields with Strict and warns with Warn', async () => {
    const body = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'fv' },
      data: {},
      bogus: 1,
    }
    const strict = await hub.call('POST', `${CMS}?fieldValidation=Strict`, body)
    expect(strict.status).toBe(400)
    expect(strict.body.message).toContain('strict decoding error')
    expect(JSON.stringify(strict.body)).toContain('bogus')
    const warn = await hub.call('POST', `${CMS}?fieldValidation=Warn`, body)
    expect(warn.status).toBe(201)
    expect(warn.headers.get('warning')).toContain('bogus')
  })
})
