/**
 * Subresources through the app: scale on workloads, the refusals of runtime subresources and
 * service-account tokens (worded for a center space, and for a simulated edge cluster's app), and
 * the self reviews behind `kubectl auth whoami` and `can-i`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNodeApp } from '../../../functions/node-server.ts'
import { bootstrapEdge, edgeNode } from '../../../lib/edge-sim/bootstrap.ts'
import { silentLogger } from '../../../lib/log.ts'
import { createTestStore } from '../../helpers/dynalite.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
const DEPLOYS = '/clusters/root/apis/apps/v1/namespaces/s/deployments'

beforeAll(async () => {
  hub = await createTestHub()
  await hub.call('POST', '/clusters/root/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 's' },
  })
  await hub.call('POST', DEPLOYS, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'd' } },
      template: {
        metadata: { labels: { app: 'd' } },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      },
    },
  })
})
afterAll(() => hub.close())

describe('scale subresource', () => {
  it('reads and patches replicas through a Scale', async () => {
    const got = await hub.call('GET', `${DEPLOYS}/d/scale`)
    expect(got.body).toMatchObject({
      kind: 'Scale',
      spec: { replicas: 2 },
      status: { selector: 'app=d' },
    })
    const patched = await hub.call(
      'PATCH',
      `${DEPLOYS}/d/scale`,
      { spec: { replicas: 5 } },
      { contentType: 'application/merge-patch+json' }
    )
    expect(patched.body.spec.replicas).toBe(5)
    expect((await hub.call('GET', `${DEPLOYS}/d`)).body.spec.replicas).toBe(5)
    const bad = await hub.call(
      'PATCH',
      `${DEPLOYS}/d/scale`,
      { spec: { replicas: -1 } },
      { contentType: 'application/merge-patch+json' }
    )
    expect(bad.status).toBe(400)
  })
})

describe('runtime subresources', () => {
  it('explains why pods/log and pods/exec do not exist here', async () => {
    await hub.call('POST', '/clusters/root/api/v1/namespaces/s/pods', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', image: 'x' }] },
    })
    const log = await hub.call('GET', '/clusters/root/api/v1/namespaces/s/pods/p/log')
    expect(log.status).toBe(400)
    expect(log.body.message).toContain('desired state only')
    expect((await hub.call('POST', '/clusters/root/api/v1/namespaces/s/pods/p/exec')).status).toBe(
      400
    )
  })

  it('explains that serviceaccounts/token issues nothing, and still 404s an unknown subresource', async () => {
    const sa = '/clusters/root/api/v1/namespaces/s/serviceaccounts'
    await hub.call('POST', sa, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'r' },
    })
    const token = await hub.call('POST', `${sa}/r/token`, {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: {},
    })
    expect(token.status).toBe(400)
    expect(token.body.message).toContain('issues no service-account tokens')
    expect((await hub.call('GET', `${sa}/r/bogus`)).status).toBe(404)
  })

  it('on a simulated edge cluster, says its pods are simulated and it runs no containers', async () => {
    const store = await createTestStore()
    try {
      const edge = createNodeApp({
        objects: store.objects,
        kv: store.kv,
        log: silentLogger,
        defaults: true,
        site: 'simulated-edge',
      })
      await bootstrapEdge(edge.deps, { node: edgeNode('sub'), adminToken: 'edge-admin' })
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await edge.app.request(`http://edge.test${path}`, {
          method,
          headers: { authorization: 'Bearer edge-admin', 'content-type': 'application/json' },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        })
        return { status: res.status, body: (await res.json()) as { message: string } }
      }
      const pods = '/api/v1/namespaces/default/pods'
      const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } }
      const spec = { containers: [{ name: 'c', image: 'x' }] }
      expect((await call('POST', pods, { ...pod, spec })).status).toBe(201)
      const log = await call('GET', `${pods}/p/log`)
      expect(log.status).toBe(400)
      expect(log.body.message).toMatch(/^pods\/log is not available on a simulated edge cluster/)
      expect(log.body.message).toContain('runs no containers')
      expect((await call('POST', `${pods}/p/exec`)).body.message).toContain('pods/exec')
      const sas = '/api/v1/namespaces/default/serviceaccounts'
      await call('POST', sas, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'r' } })
      const token = await call('POST', `${sas}/r/token`, { kind: 'TokenRequest', spec: {} })
      expect(token.status).toBe(400)
      expect(token.body.message).toContain('on a simulated edge cluster')
      await edge.settle()
    } finally {
      await store.close()
    }
  })
})

describe('self reviews', () => {
  it('answers whoami and can-i from the token', async () => {
    const who = await hub.call(
      'POST',
      '/clusters/root/apis/authentication.k8s.io/v1/selfsubjectreviews',
      { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }
    )
    expect(who.status).toBe(201)
    expect(who.body.status.userInfo.username).toBe('admin')
    await hub.mintToken('scoped', ['root:espw'])
    const review = (ns: string) => ({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: { namespace: ns, verb: 'create', resource: 'configmaps' } },
    })
    const yes = await hub.call(
      'POST',
      '/clusters/root:espw/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
      review('a'),
      { token: 'scoped' }
    )
    expect(yes.body.status.allowed).toBe(true)
    const admin = await hub.call(
      'POST',
      '/clusters/root/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
      review('a')
    )
    expect(admin.body.status.allowed).toBe(true)
  })

  it('answers a token in a space it does not reach: allowed false, while other requests stay 403', async () => {
    await hub.mintToken('elsewhere', ['root:espw'])
    const opts = { token: 'elsewhere' }
    const who = await hub.call(
      'POST',
      '/clusters/root/apis/authentication.k8s.io/v1/selfsubjectreviews',
      { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      opts
    )
    expect(who.status).toBe(201)
    expect(who.body.status.userInfo.username).toBe('user-elsewhere')
    const can = await hub.call(
      'POST',
      '/clusters/root/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
      {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectAccessReview',
        spec: { resourceAttributes: { verb: 'create', group: 'apps', resource: 'deployments' } },
      },
      opts
    )
    expect(can.status).toBe(201)
    expect(can.body.status.allowed).toBe(false)
    expect(can.body.status.reason).toContain('does not reach workspace root')
    const rules = await hub.call(
      'POST',
      '/clusters/root/apis/authorization.k8s.io/v1/selfsubjectrulesreviews',
      { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: {} },
      opts
    )
    expect(rules.status).toBe(201)
    expect(rules.body.status.resourceRules).toEqual([])
    expect(
      (await hub.call('GET', '/clusters/root/api/v1/namespaces', undefined, opts)).status
    ).toBe(403)
    expect((await hub.call('GET', '/clusters/root/api', undefined, opts)).status).toBe(403)
    const missing = await hub.call(
      'POST',
      '/clusters/root:nowhere/apis/authentication.k8s.io/v1/selfsubjectreviews',
      { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      opts
    )
    // no existence oracle: a space out of reach answers the same whether it exists or not
    expect(missing.status).toBe(201)
    expect(missing.body.status.userInfo.username).toBe('user-elsewhere')
  })
})
