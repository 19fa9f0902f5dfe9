/**
 * Defaults that need the edge's store, through the HTTP app: Service clusterIP and nodePort
 * allocation (unique, kept across updates and applies, refused when taken or out of range), a
 * server-side applied Deployment getting defaults its applier does not own, and the hub without the
 * option storing objects as written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNodeApp } from '../../../functions/node-server.ts'
import { inServiceRange } from '../../../lib/edge-sim/allocator.ts'
import { bootstrapEdge, edgeNode } from '../../../lib/edge-sim/bootstrap.ts'
import { silentLogger } from '../../../lib/log.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'

const TOKEN = 'edge-admin'
const SVCS = '/api/v1/namespaces/default/services'
const DEPLOYS = '/apis/apps/v1/namespaces/default/deployments'

type Call = (
  method: string,
  path: string,
  body?: unknown,
  contentType?: string
) => Promise<{ status: number; body: any }>

function caller(app: ReturnType<typeof createNodeApp>['app']): Call {
  return async (method, path, body, contentType = 'application/json') => {
    const res = await app.request(`https://edge.test${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': contentType },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    return { status: res.status, body: await res.json() }
  }
}

const service = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name },
  spec: { selector: { app: name }, ports: [{ port: 80 }], ...spec },
})

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'web', image: 'nginx' }] },
    },
  },
}

let store: TestStore
let call: Call
beforeAll(async () => {
  store = await createTestStore()
  const edge = createNodeApp({
    objects: store.objects,
    kv: store.kv,
    log: silentLogger,
    defaults: true,
  })
  await bootstrapEdge(edge.deps, { node: edgeNode('svc'), adminToken: TOKEN })
  call = caller(edge.app)
})
afterAll(() => store?.close())

describe('Service defaults on a simulated edge', () => {
  it('allocates a unique clusterIP from 10.96.0.0/12 and fills in the ClusterIP defaults', async () => {
    const ips = new Set<string>(['10.96.0.1'])
    for (const name of ['a', 'b', 'c', 'd', 'e']) {
      const res = await call('POST', SVCS, service(name))
      expect(res.status).toBe(201)
      const spec = res.body.spec
      expect(inServiceRange(spec.clusterIP)).toBe(true)
      expect(ips.has(spec.clusterIP)).toBe(false)
      ips.add(spec.clusterIP)
      expect(spec).toMatchObject({
        type: 'ClusterIP',
        sessionAffinity: 'None',
        clusterIPs: [spec.clusterIP],
        ipFamilies: ['IPv4'],
        ipFamilyPolicy: 'SingleStack',
        internalTrafficPolicy: 'Cluster',
        ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
      })
    }
    const kubernetes = await call('GET', `${SVCS}/kubernetes`)
    expect(kubernetes.body.spec.clusterIP).toBe('10.96.0.1')
  })

  it('keeps the clusterIP across updates that leave it out, and refuses to change it', async () => {
    const before = (await call('GET', `${SVCS}/a`)).body
    const put = await call('PUT', `${SVCS}/a`, {
      ...service('a', { ports: [{ port: 8080 }] }),
      metadata: { name: 'a', resourceVersion: before.metadata.resourceVersion },
    })
    expect(put.status).toBe(200)
    expect(put.body.spec).toMatchObject({
      clusterIP: before.spec.clusterIP,
      ports: [{ port: 8080, targetPort: 8080 }],
    })
    const apply = await call(
      'PATCH',
      `${SVCS}/a?fieldManager=agent`,
      service('a', { ports: [{ port: 8080 }] }),
      'application/apply-patch+yaml'
    )
    expect(apply.status, JSON.stringify(apply.body)).toBe(200)
    expect(apply.body.spec.clusterIP).toBe(before.spec.clusterIP)
    const moved = await call(
      'PATCH',
      `${SVCS}/a`,
      { spec: { clusterIP: '10.96.9.9', clusterIPs: ['10.96.9.9'] } },
      'application/merge-patch+json'
    )
    expect(moved.status).toBe(422)
    expect(moved.body.message).toContain('may not change once set')
  })

  it('honours a requested clusterIP once, rejects a taken or out-of-range one, and keeps None', async () => {
    const fixed = await call('POST', SVCS, service('fixed', { clusterIP: '10.96.0.10' }))
    expect(fixed.status).toBe(201)
    expect(fixed.body.spec.clusterIPs).toEqual(['10.96.0.10'])
    const taken = await call('POST', SVCS, service('taken', { clusterIP: '10.96.0.10' }))
    expect(taken.status).toBe(422)
    expect(taken.body.message).toContain('provided IP is already allocated')
    const outside = await call('POST', SVCS, service('outside', { clusterIP: '10.0.0.10' }))
    expect(outside.status).toBe(422)
    expect(outside.body.message).toContain('is not in the valid range')
    const headless = await call('POST', SVCS, service('headless', { clusterIP: 'None' }))
    expect(headless.body.spec).toMatchObject({ clusterIP: 'None', clusterIPs: ['None'] })
    const external = await call('POST', SVCS, {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'ext' },
      spec: { type: 'ExternalName', externalName: 'example.com' },
    })
    expect(external.body.spec.clusterIP).toBeUndefined()
    expect(external.body.spec.sessionAffinity).toBe('None')
  })

  it('gives NodePort Services a nodePort in range that survives updates', async () => {
    const res = await call('POST', SVCS, service('np', { type: 'NodePort' }))
    const port = res.body.spec.ports[0].nodePort
    expect(port).toBeGreaterThanOrEqual(30000)
    expect(port).toBeLessThanOrEqual(32767)
    expect(res.body.spec.externalTrafficPolicy).toBe('Cluster')
    const again = await call(
      'PATCH',
      `${SVCS}/np?fieldManager=agent`,
      service('np', { type: 'NodePort' }),
      'application/apply-patch+yaml'
    )
    expect(again.body.spec.ports[0].nodePort).toBe(port)
    const clash = await call(
      'POST',
      SVCS,
      service('np2', { type: 'NodePort', ports: [{ port: 80, nodePort: port }] })
    )
    expect(clash.status).toBe(422)
  })
})

describe('Deployment defaults through server-side apply', () => {
  it('defaults an applied Deployment without giving the applier the defaulted fields', async () => {
    const res = await call(
      'PATCH',
      `${DEPLOYS}/web?fieldManager=agent`,
      deployment,
      'application/apply-patch+yaml'
    )
    expect(res.status).toBe(201)
    expect(res.body.spec).toMatchObject({ replicas: 1, revisionHistoryLimit: 10 })
    expect(res.body.spec.template.spec.containers[0].imagePullPolicy).toBe('Always')
    const owned = JSON.stringify(res.body.metadata.managedFields[0].fieldsV1)
    expect(owned).not.toContain('f:replicas')
    const again = await call(
      'PATCH',
      `${DEPLOYS}/web?fieldManager=agent`,
      deployment,
      'application/apply-patch+yaml'
    )
    expect(again.body.spec.replicas).toBe(1)
    expect(again.body.metadata.generation).toBe(1)
    expect(again.body.metadata.resourceVersion).toBe(res.body.metadata.resourceVersion)
  })

  it('has the center (no defaults option) fill declared defaults but allocate nothing', async () => {
    const center = createNodeApp({ objects: store.objects, kv: store.kv, log: silentLogger })
    const res = await caller(center.app)(
      'POST',
      '/clusters/root/api/v1/namespaces/default/services',
      service('plain')
    )
    expect(res.status).toBe(201)
    expect(res.body.spec.clusterIP).toBeUndefined()
    expect(res.body.spec.clusterIPs).toBeUndefined()
    expect(res.body.spec.type).toBe('ClusterIP')
    expect(res.body.spec.ports).toEqual([{ port: 80, protocol: 'TCP', targetPort: 80 }])
  })
})
