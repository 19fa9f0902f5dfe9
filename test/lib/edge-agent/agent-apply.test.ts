/**
 * The agent applying desired state to a real edge API (an in-process hub) from a fake center
 * (fake-center.ts, the protocol boundary): first full apply with Namespaces first, skipped kinds
 * and built-ins, the 304 path, updates by server-side apply that keep edge-owned fields and
 * remove dropped ones, drift reverted without re-applying for status changes; the ownership record
 * written in the edge cluster.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DOWNSYNCED_ANNOTATION } from '../../../lib/edge/protocol.ts'
import { AGENT_ANNOTATION } from '../../../lib/edge-agent/marker.ts'
import { type FakeCenter, startFakeCenter } from './fake-center.ts'
import {
  AGENT_NS,
  cmRef,
  configMap,
  deployment,
  type Edge,
  namespace,
  newAgent,
  nsRef,
  recordNameOf,
  ref,
  startEdge,
} from './fixture.ts'
import { recordEntries } from './record-fixture.ts'

let edge: Edge
let center: FakeCenter
beforeAll(async () => {
  edge = await startEdge()
})
afterAll(async () => {
  await edge?.close()
})

describe('first apply', () => {
  beforeAll(async () => {
    center = await startFakeCenter('mb-apply')
  })
  afterAll(async () => {
    await center?.close()
  })

  it('creates Namespaces first, marks what it creates, skips what is not for the edge', async () => {
    const dep = ref('apps/v1', 'deployments', 'a1', 'web')
    // Put in an order that would fail without phases: namespaced objects before their Namespace.
    center.put(dep, deployment('a1', 'web', 2))
    center.put(cmRef('a1', 'conf'), configMap('a1', 'conf', { k: 'v' }))
    center.put(nsRef('a1'), namespace('a1', { team: 'x' }))
    center.put(nsRef('default'), namespace('default', { hijacked: 'yes' }))
    center.put(ref('edge.kcp.io/v1alpha1', 'syncerconfigs', '', 'the-one'), {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'SyncerConfig',
      metadata: { name: 'the-one' },
      spec: {},
    })
    center.put(ref('apis.kcp.io/v1alpha1', 'apibindings', '', 'b'), {
      apiVersion: 'apis.kcp.io/v1alpha1',
      kind: 'APIBinding',
      metadata: { name: 'b' },
    })
    center.put(ref('example.com/v1', 'widgets', 'a1', 'w'), {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w', namespace: 'a1' },
    })
    const agent = await newAgent(center, edge)
    const r = await agent.poll()
    expect(r).toMatchObject({ ok: true, outcome: 'applied', created: 3, problems: 1 })

    const ns = await edge.get(nsRef('a1'))
    const cm = await edge.get(cmRef('a1', 'conf'))
    const d = await edge.get(dep)
    expect(ns?.metadata.labels).toEqual({ team: 'x', 'kubernetes.io/metadata.name': 'a1' })
    for (const o of [ns, cm, d])
      expect(o?.metadata.annotations?.[DOWNSYNCED_ANNOTATION]).toBe('true')
    expect(Number(ns?.metadata.resourceVersion)).toBeLessThan(Number(cm?.metadata.resourceVersion))
    expect(Number(ns?.metadata.resourceVersion)).toBeLessThan(Number(d?.metadata.resourceVersion))
    expect(cm?.data).toEqual({ k: 'v' })
    // Built-in namespace untouched, SyncerConfig and APIBinding not applied.
    expect((await edge.get(nsRef('default')))?.metadata.labels?.hijacked).toBeUndefined()
    expect(await edge.get(ref('edge.kcp.io/v1alpha1', 'syncerconfigs', '', 'the-one'))).toBe(
      undefined
    )
    // Not served at the edge: reported, not fatal.
    expect(center.reports[0]?.problems).toEqual([
      expect.objectContaining({ resource: 'widgets', reason: 'ApplyFailed' }),
    ])
    // The record is in the edge cluster, naming the agent in its marker; the desired copy on disk.
    const owned = await recordEntries(edge, recordNameOf(agent.stateDir))
    expect(Object.keys(owned).sort()).toEqual([
      '/configmaps/a1/conf',
      '/namespaces//a1',
      'apps/deployments/a1/web',
    ])
    expect(owned['/configmaps/a1/conf']?.uid).toBe(cm?.metadata.uid)
    expect(cm?.metadata.annotations?.[AGENT_ANNOTATION]).toBe(
      `${AGENT_NS}/${recordNameOf(agent.stateDir)}`
    )
    const desired = JSON.parse(await readFile(join(agent.stateDir, 'desired.json'), 'utf8'))
    expect(desired.version).toBe(center.version)

    // 304: the version on disk is named, nothing is written at the edge.
    const before = center.requests.length
    const again = await agent.poll()
    expect(again).toMatchObject({ ok: true, outcome: 'unchanged', created: 0, updated: 0 })
    expect(center.requests[before]).toMatchObject({ ifNoneMatch: `"${center.version}"` })
    expect((await edge.get(cmRef('a1', 'conf')))?.metadata.resourceVersion).toBe(
      cm?.metadata.resourceVersion
    )
  })
})

describe('updates', () => {
  beforeAll(async () => {
    center = await startFakeCenter('mb-update')
  })
  afterAll(async () => {
    await center?.close()
  })

  it('server-side applies: edge-owned fields survive, dropped fields go', async () => {
    const svc = ref('v1', 'services', 'u1', 'svc')
    const body = (port: number, labels: Record<string, string>) => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'svc', namespace: 'u1', labels },
      spec: { selector: { app: 'a' }, ports: [{ port }] },
    })
    center.put(nsRef('u1'), namespace('u1'))
    center.put(svc, body(80, { a: '1', b: '2' }))
    const agent = await newAgent(center, edge)
    expect((await agent.poll()).created).toBe(2)
    // The edge assigns a clusterIP under its own field manager.
    const set = await edge.call(
      'PATCH',
      '/api/v1/namespaces/u1/services/svc',
      { spec: { clusterIP: '10.96.0.10' } },
      { contentType: 'application/merge-patch+json', manager: 'kube-apiserver' }
    )
    expect(set.status).toBe(200)
    center.put(svc, body(81, { a: '1' }))
    expect(await agent.poll()).toMatchObject({ outcome: 'applied', updated: 1 })
    const live = await edge.get(svc)
    expect(live?.spec).toMatchObject({ clusterIP: '10.96.0.10', ports: [{ port: 81 }] })
    expect(live?.metadata.labels).toEqual({ a: '1' })
  })

  it('reverts drift on owned fields, but not for status or foreign-field changes', async () => {
    const dep = ref('apps/v1', 'deployments', 'u2', 'web')
    center.put(nsRef('u2'), namespace('u2'))
    center.put(dep, deployment('u2', 'web', 3))
    const agent = await newAgent(center, edge)
    await agent.poll()
    const path = '/apis/apps/v1/namespaces/u2/deployments/web'
    // Status written by a controller, and an annotation nobody applied: no re-apply.
    await edge.call(
      'PATCH',
      `${path}/status`,
      { status: { replicas: 3 } },
      {
        contentType: 'application/merge-patch+json',
        manager: 'kube-controller-manager',
      }
    )
    await edge.call(
      'PATCH',
      path,
      { metadata: { annotations: { note: 'mine' } } },
      {
        contentType: 'application/merge-patch+json',
        manager: 'operator',
      }
    )
    expect(await agent.poll()).toMatchObject({ updated: 0, unchanged: 2 })
    // Someone scales it at the edge: the agent owns spec.replicas and puts it back.
    await edge.call(
      'PATCH',
      path,
      { spec: { replicas: 9 } },
      {
        contentType: 'application/merge-patch+json',
        manager: 'kubectl-edit',
      }
    )
    expect(await agent.poll()).toMatchObject({ ok: true, updated: 1 })
    const live = await edge.get(dep)
    expect(live?.spec).toMatchObject({ replicas: 3 })
    expect(live?.metadata.annotations?.note).toBe('mine')
    expect(await agent.poll()).toMatchObject({ updated: 0 })
    // Deleted at the edge: created again (the record names it).
    const gone = await edge.call('DELETE', path)
    expect(gone.status).toBe(200)
    expect(await agent.poll()).toMatchObject({ created: 1 })
    expect((await edge.get(dep))?.metadata.uid).not.toBe(live?.metadata.uid)
  })
})
