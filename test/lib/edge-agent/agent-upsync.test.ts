/**
 * Upsync against a real edge API: the SyncerConfig `the-one` names upsync sets; edge-born objects
 * they select go up once (stripped of server metadata, at the edge's preferred version, status
 * kept), again when they change, and as a delete when they vanish. Objects the agent downsynced
 * and the cluster's own system objects are never upsynced, nor the agent's ownership record, nor
 * its marker on objects edge controllers copied it onto.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FakeCenter, startFakeCenter } from './fake-center.ts'
import {
  AGENT_NS,
  cmRef,
  configMap,
  type Edge,
  namespace,
  newAgent,
  nsRef,
  recordNameOf,
  ref,
  startEdge,
} from './fixture.ts'

let edge: Edge
let center: FakeCenter
beforeAll(async () => {
  edge = await startEdge()
  center = await startFakeCenter('mb-upsync')
})
afterAll(async () => {
  await center?.close()
  await edge?.close()
})

const syncerConfig = (upsync: unknown[]) => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'SyncerConfig',
  metadata: { name: 'the-one' },
  spec: { upsync },
})
const THE_ONE = ref('edge.kcp.io/v1alpha1', 'syncerconfigs', '', 'the-one')

describe('upsync', () => {
  it('sends new, changed and vanished edge-born objects; never downsynced ones', async () => {
    center.put(nsRef('up'), namespace('up'))
    center.put(cmRef('up', 'down'), configMap('up', 'down', { from: 'center' }))
    center.put(
      THE_ONE,
      syncerConfig([
        { apiGroup: '', resources: ['configmaps', 'secrets'], namespaces: ['up'], names: ['*'] },
      ])
    )
    // Made at the edge, but the mailbox also holds a copy: foreign, never upsynced.
    await edge.call('POST', '/api/v1/namespaces', namespace('up'))
    await edge.call('POST', '/api/v1/namespaces/up/configmaps', configMap('up', 'clash', {}))
    center.put(cmRef('up', 'clash'), configMap('up', 'clash', { from: 'center' }))
    const agent = await newAgent(center, edge)
    await agent.poll()
    expect(center.reports.flatMap((r) => r.upsync.apply)).toEqual([])
    expect(center.reports.flatMap((r) => r.problems.map((p) => p.name)).sort()).toEqual([
      'clash',
      'up',
    ])

    const made = await edge.call('POST', '/api/v1/namespaces/up/configmaps', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'born',
        namespace: 'up',
        labels: { x: '1' },
        finalizers: ['example.com/keep'],
      },
      data: { v: '1' },
    })
    expect(made.status).toBe(201)
    // Outside the selected namespaces: not upsynced.
    await edge.call(
      'POST',
      '/api/v1/namespaces/default/configmaps',
      configMap('default', 'born', {})
    )
    let n = center.reports.length
    await agent.poll()
    expect(center.reports.slice(n).flatMap((r) => r.upsync.apply)).toEqual([
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'born', namespace: 'up', labels: { x: '1' } },
        data: { v: '1' },
      },
    ])
    n = center.reports.length
    await agent.poll()
    expect(center.reports.length).toBe(n)

    await edge.call(
      'PATCH',
      '/api/v1/namespaces/up/configmaps/born',
      { data: { v: '2' } },
      {
        contentType: 'application/merge-patch+json',
      }
    )
    await agent.poll()
    expect(center.reports.slice(n).flatMap((r) => r.upsync.apply.map((o) => o.data))).toEqual([
      { v: '2' },
    ])
    n = center.reports.length
    await edge.call(
      'PATCH',
      '/api/v1/namespaces/up/configmaps/born',
      { metadata: { finalizers: null } },
      {
        contentType: 'application/merge-patch+json',
      }
    )
    await edge.call('DELETE', '/api/v1/namespaces/up/configmaps/born')
    await agent.poll()
    expect(center.reports.slice(n).flatMap((r) => r.upsync.delete)).toEqual([cmRef('up', 'born')])
    expect(center.reports.slice(n).flatMap((r) => r.upsync.apply)).toEqual([])
    expect(agent.inspect().reported.upsynced).toEqual({})
  })

  it('deletes upsynced objects the SyncerConfig stops selecting', async () => {
    center.put(nsRef('up2'), namespace('up2'))
    center.put(
      THE_ONE,
      syncerConfig([{ apiGroup: '', resources: ['*'], namespaces: ['up2'], names: ['keep'] }])
    )
    const agent = await newAgent(center, edge)
    await agent.poll()
    await edge.call(
      'POST',
      '/api/v1/namespaces/up2/configmaps',
      configMap('up2', 'keep', { a: 'b' })
    )
    let n = center.reports.length
    await agent.poll()
    const applied = center.reports.slice(n).flatMap((r) => r.upsync.apply)
    expect(applied.map((o) => `${o.kind}/${(o.metadata as { name: string }).name}`)).toEqual([
      'ConfigMap/keep',
    ])
    n = center.reports.length
    center.put(THE_ONE, syncerConfig([]))
    await agent.poll()
    expect(center.reports.slice(n).flatMap((r) => r.upsync.delete)).toEqual([cmRef('up2', 'keep')])
  })

  it('never upsyncs its own ownership record, nor its marker on what edge controllers copy', async () => {
    center.put(nsRef('up3'), namespace('up3'))
    center.put(cmRef('up3', 'placed'), configMap('up3', 'placed', {}))
    center.put(
      THE_ONE,
      syncerConfig([{ apiGroup: '', resources: ['configmaps'], namespaces: ['*'], names: ['*'] }])
    )
    const agent = await newAgent(center, edge)
    await agent.poll()
    const record = `${recordNameOf(agent.stateDir)}-0`
    expect(await edge.get(cmRef(AGENT_NS, record))).toBeDefined()
    // A controller's copy of a placed object's metadata, marker included.
    const placed = await edge.get(cmRef('up3', 'placed'))
    await edge.call('POST', '/api/v1/namespaces/up3/configmaps', {
      ...configMap('up3', 'copied', {}),
      metadata: { name: 'copied', namespace: 'up3', annotations: placed?.metadata.annotations },
    })
    await agent.poll()
    const names = center.reports.flatMap((r) =>
      r.upsync.apply.map((o) => (o.metadata as { name: string }).name)
    )
    expect(names).toContain('copied')
    expect(names).not.toContain(record)
    expect(names).not.toContain('placed')
    const copied = center.reports
      .flatMap((r) => r.upsync.apply)
      .find((o) => (o.metadata as { name: string }).name === 'copied')
    expect(copied?.metadata).toBeDefined()
    expect((copied?.metadata as { annotations?: unknown } | undefined)?.annotations).toBeUndefined()
  })
})
