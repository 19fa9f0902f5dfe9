/**
 * Create-only mode (issue 5) against a real edge API: an object whose desired body is annotated
 * `edge.kcp.io/downsync-overwrite: "false"` is created once and then left to the edge — desired
 * changes and drift are not applied, leaving the desired state forgets it instead of deleting
 * it — while its status is still reported; deleted at the edge, it is created again; normal
 * objects beside it are unaffected; switching modes takes effect on the next poll.
 */
import { describe, expect, it } from 'vitest'
import { DOWNSYNCED_ANNOTATION } from '../../../lib/edge/protocol.ts'
import { DOWNSYNC_OVERWRITE_ANNOTATION } from '../../../lib/edge-agent/create-only.ts'
import { agentBench, cmRef, configMap, namespace, nsRef } from './fixture.ts'

const bench = agentBench('mb-create-only')

/** A ConfigMap body, with the overwrite annotation set to `overwrite` when given. */
function cm(ns: string, name: string, data: Record<string, string>, overwrite?: string) {
  const body = configMap(ns, name, data)
  if (overwrite === undefined) return body
  return {
    ...body,
    metadata: { ...body.metadata, annotations: { [DOWNSYNC_OVERWRITE_ANNOTATION]: overwrite } },
  }
}

const editAtEdge = (ns: string, name: string, data: Record<string, string>) =>
  bench.edge.call(
    'PATCH',
    `/api/v1/namespaces/${ns}/configmaps/${name}`,
    { data },
    { contentType: 'application/merge-patch+json', manager: 'edge-operator' }
  )

/** The ConfigMap status reports the center received for `name`, oldest first. */
const statusReports = (name: string) =>
  bench.center.reports.flatMap((r) => r.statuses).filter((s) => s.name === name)

describe('create-only objects', () => {
  it('are created once, marked and recorded; changes and drift are not applied', async () => {
    bench.center.put(nsRef('c1'), namespace('c1'))
    bench.center.put(cmRef('c1', 'keep'), cm('c1', 'keep', { v: '1' }, 'false'))
    bench.center.put(cmRef('c1', 'norm'), cm('c1', 'norm', { v: '1' }))
    const agent = await bench.agent()
    expect(await agent.poll()).toMatchObject({ ok: true, created: 3 })
    const created = await bench.edge.get(cmRef('c1', 'keep'))
    expect(created?.data).toEqual({ v: '1' })
    expect(created?.metadata.annotations).toMatchObject({
      [DOWNSYNCED_ANNOTATION]: 'true',
      [DOWNSYNC_OVERWRITE_ANNOTATION]: 'false',
    })
    expect(agent.inspect().owned.get('/configmaps/c1/keep')).toMatchObject({
      uid: created?.metadata.uid,
      createOnly: true,
    })
    expect(agent.inspect().owned.get('/configmaps/c1/norm')?.createOnly).toBeUndefined()
    expect(statusReports('keep').at(-1)?.observedGeneration).toBe(1)

    // A desired change: applied to the normal object only; the create-only one keeps its
    // content and its status is reported as reflecting the new generation.
    bench.center.put(cmRef('c1', 'keep'), cm('c1', 'keep', { v: '2' }, 'false'))
    bench.center.put(cmRef('c1', 'norm'), cm('c1', 'norm', { v: '2' }))
    expect(await agent.poll()).toMatchObject({ ok: true, updated: 1, created: 0 })
    expect((await bench.edge.get(cmRef('c1', 'norm')))?.data).toEqual({ v: '2' })
    const kept = await bench.edge.get(cmRef('c1', 'keep'))
    expect(kept?.data).toEqual({ v: '1' })
    expect(kept?.metadata.resourceVersion).toBe(created?.metadata.resourceVersion)
    expect(statusReports('keep').at(-1)?.observedGeneration).toBe(2)

    // Drift: reverted on the normal object, left on the create-only one.
    expect((await editAtEdge('c1', 'keep', { v: 'edge' })).status).toBe(200)
    expect((await editAtEdge('c1', 'norm', { v: 'edge' })).status).toBe(200)
    expect(await agent.poll()).toMatchObject({ ok: true, updated: 1 })
    expect((await bench.edge.get(cmRef('c1', 'keep')))?.data).toEqual({ v: 'edge' })
    expect((await bench.edge.get(cmRef('c1', 'norm')))?.data).toEqual({ v: '2' })
  })

  it('are forgotten, not deleted, when they leave the desired state', async () => {
    bench.center.put(nsRef('c2'), namespace('c2'))
    bench.center.put(cmRef('c2', 'keep'), cm('c2', 'keep', { v: '1' }, 'false'))
    bench.center.put(cmRef('c2', 'norm'), cm('c2', 'norm', { v: '1' }))
    const agent = await bench.agent()
    expect((await agent.poll()).created).toBe(3)
    bench.center.remove(cmRef('c2', 'keep'))
    bench.center.remove(cmRef('c2', 'norm'))
    expect(await agent.poll()).toMatchObject({ ok: true, pruned: 1 })
    expect(await bench.edge.get(cmRef('c2', 'norm'))).toBeUndefined()
    expect((await bench.edge.get(cmRef('c2', 'keep')))?.data).toEqual({ v: '1' })
    expect(agent.inspect().owned.has('/configmaps/c2/keep')).toBe(false)

    // Desired again: the agent's own object is held again, without a write or a problem.
    const before = await bench.edge.get(cmRef('c2', 'keep'))
    bench.center.put(cmRef('c2', 'keep'), cm('c2', 'keep', { v: '3' }, 'false'))
    expect(await agent.poll()).toMatchObject({ ok: true, created: 0, updated: 0, problems: 0 })
    const after = await bench.edge.get(cmRef('c2', 'keep'))
    expect(after?.metadata.resourceVersion).toBe(before?.metadata.resourceVersion)
    expect(agent.inspect().owned.get('/configmaps/c2/keep')).toMatchObject({
      uid: before?.metadata.uid,
      createOnly: true,
    })
  })

  it('are created again, from the current desired body, when deleted at the edge', async () => {
    bench.center.put(nsRef('c3'), namespace('c3'))
    bench.center.put(cmRef('c3', 'keep'), cm('c3', 'keep', { v: '1' }, 'false'))
    const agent = await bench.agent()
    expect((await agent.poll()).created).toBe(2)
    const first = await bench.edge.get(cmRef('c3', 'keep'))
    bench.center.put(cmRef('c3', 'keep'), cm('c3', 'keep', { v: '2' }, 'false'))
    expect((await agent.poll()).created).toBe(0)
    const del = await bench.edge.call('DELETE', '/api/v1/namespaces/c3/configmaps/keep')
    expect(del.status).toBe(200)
    expect(await agent.poll()).toMatchObject({ ok: true, created: 1 })
    const again = await bench.edge.get(cmRef('c3', 'keep'))
    expect(again?.data).toEqual({ v: '2' })
    expect(again?.metadata.uid).not.toBe(first?.metadata.uid)
    expect(agent.inspect().owned.get('/configmaps/c3/keep')).toMatchObject({
      uid: again?.metadata.uid,
      createOnly: true,
    })
  })

  it('only with the value "false"; other values are the normal mode', async () => {
    const values = ['true', 'False', '']
    bench.center.put(nsRef('c4'), namespace('c4'))
    const putAll = (data: string) =>
      values.forEach((v, i) => {
        bench.center.put(cmRef('c4', `v${i}`), cm('c4', `v${i}`, { v: data }, v))
      })
    putAll('1')
    const agent = await bench.agent()
    expect((await agent.poll()).created).toBe(4)
    putAll('2')
    expect(await agent.poll()).toMatchObject({ ok: true, updated: 3 })
    for (const i of values.keys())
      expect((await bench.edge.get(cmRef('c4', `v${i}`)))?.data).toEqual({ v: '2' })
    expect([...agent.inspect().owned.values()].some((r) => r.createOnly)).toBe(false)
  })
})

describe('switching modes', () => {
  it('to create-only stops updates; back to normal applies the body again', async () => {
    bench.center.put(nsRef('c5'), namespace('c5'))
    bench.center.put(cmRef('c5', 'sw'), cm('c5', 'sw', { v: '1' }))
    const agent = await bench.agent()
    expect((await agent.poll()).created).toBe(2)

    // Normal → create-only, with a content change in the same generation: nothing applied.
    bench.center.put(cmRef('c5', 'sw'), cm('c5', 'sw', { v: '2' }, 'false'))
    expect(await agent.poll()).toMatchObject({ ok: true, created: 0, updated: 0 })
    const held = await bench.edge.get(cmRef('c5', 'sw'))
    expect(held?.data).toEqual({ v: '1' })
    expect(held?.metadata.annotations?.[DOWNSYNC_OVERWRITE_ANNOTATION]).toBeUndefined()
    expect(agent.inspect().owned.get('/configmaps/c5/sw')?.createOnly).toBe(true)
    expect((await editAtEdge('c5', 'sw', { v: 'edge' })).status).toBe(200)
    expect(await agent.poll()).toMatchObject({ ok: true, updated: 0 })
    expect((await bench.edge.get(cmRef('c5', 'sw')))?.data).toEqual({ v: 'edge' })

    // Create-only → normal ("true"): the desired body is applied, drift reverted again.
    bench.center.put(cmRef('c5', 'sw'), cm('c5', 'sw', { v: '2' }, 'true'))
    expect(await agent.poll()).toMatchObject({ ok: true, updated: 1 })
    const normal = await bench.edge.get(cmRef('c5', 'sw'))
    expect(normal?.data).toEqual({ v: '2' })
    expect(normal?.metadata.uid).toBe(held?.metadata.uid)
    expect(agent.inspect().owned.get('/configmaps/c5/sw')?.createOnly).toBeUndefined()
    expect((await editAtEdge('c5', 'sw', { v: 'edge' })).status).toBe(200)
    expect(await agent.poll()).toMatchObject({ ok: true, updated: 1 })
    expect((await bench.edge.get(cmRef('c5', 'sw')))?.data).toEqual({ v: '2' })

    // And normal objects are deleted on leaving the desired state again.
    bench.center.remove(cmRef('c5', 'sw'))
    expect(await agent.poll()).toMatchObject({ ok: true, pruned: 1 })
    expect(await bench.edge.get(cmRef('c5', 'sw'))).toBeUndefined()
  })
})
