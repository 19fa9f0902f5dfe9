/**
 * Pruning and ownership against a real edge API: only objects in the agent's own record are
 * deleted when they leave the desired set; an edge object carrying the downsynced annotation but
 * not in the record (what an edge controller copying the marker produces: KubeStellar #900) is
 * never deleted; a foreign object where a desired one should go is reported and left alone; CRDs
 * and Namespaces are created first and deleted last.
 */
import { describe, expect, it } from 'vitest'
import { DOWNSYNCED_ANNOTATION, type ObjectRef } from '../../../lib/edge/protocol.ts'
import type { EdgeKube } from '../../../lib/edge-agent/kube-client.ts'
import {
  agentBench,
  cmRef,
  configMap,
  deployment,
  namespace,
  newAgent,
  nsRef,
  ref,
} from './fixture.ts'

// A fresh mailbox per test: each test's agent is the only one writing its objects.
const bench = agentBench('mb-prune')

describe('prune', () => {
  it('deletes only recorded objects that left the desired set', async () => {
    bench.center.put(nsRef('p1'), namespace('p1'))
    bench.center.put(cmRef('p1', 'a'), configMap('p1', 'a', { v: '1' }))
    bench.center.put(cmRef('p1', 'b'), configMap('p1', 'b', { v: '1' }))
    const agent = await bench.agent()
    expect((await agent.poll()).created).toBe(3)
    // Made at the edge by someone else, in the agent's namespace.
    const made = await bench.edge.call(
      'POST',
      '/api/v1/namespaces/p1/configmaps',
      configMap('p1', 'c', {})
    )
    expect(made.status).toBe(201)
    bench.center.remove(cmRef('p1', 'a'))
    expect(await agent.poll()).toMatchObject({ ok: true, pruned: 1 })
    expect(await bench.edge.get(cmRef('p1', 'a'))).toBeUndefined()
    expect(await bench.edge.get(cmRef('p1', 'b'))).toBeDefined()
    expect(await bench.edge.get(cmRef('p1', 'c'))).toBeDefined()
    expect(agent.inspect().owned.has('/configmaps/p1/a')).toBe(false)
  })

  it('never deletes an object that only carries the downsynced annotation (#900)', async () => {
    const dep = ref('apps/v1', 'deployments', 'p2', 'web')
    bench.center.put(nsRef('p2'), namespace('p2'))
    bench.center.put(dep, deployment('p2', 'web', 1))
    const agent = await bench.agent()
    await agent.poll()
    const owner = await bench.edge.get(dep)
    // A controller makes a ReplicaSet and copies the marker onto it.
    const rs = await bench.edge.call(
      'POST',
      '/apis/apps/v1/namespaces/p2/replicasets',
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: {
          name: 'web-5d4f',
          namespace: 'p2',
          annotations: { [DOWNSYNCED_ANNOTATION]: 'true' },
          ownerReferences: [
            { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: owner?.metadata.uid },
          ],
        },
        spec: {
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'main', image: 'nginx' }] },
          },
        },
      },
      { manager: 'kube-controller-manager' }
    )
    expect(rs.status).toBe(201)
    // And an orphan with the marker, as if left by an older agent.
    await bench.edge.call('POST', '/api/v1/namespaces/p2/configmaps', {
      ...configMap('p2', 'stray', {}),
      metadata: {
        name: 'stray',
        namespace: 'p2',
        annotations: { [DOWNSYNCED_ANNOTATION]: 'true' },
      },
    })
    bench.center.put(cmRef('p2', 'other'), configMap('p2', 'other', {}))
    for (let i = 0; i < 3; i++) expect((await agent.poll()).ok).toBe(true)
    bench.center.remove(cmRef('p2', 'other'))
    expect(await agent.poll()).toMatchObject({ pruned: 1 })
    const rsRef = ref('apps/v1', 'replicasets', 'p2', 'web-5d4f')
    expect((await bench.edge.get(rsRef))?.metadata.uid).toBe(rs.body.metadata.uid)
    expect(await bench.edge.get(cmRef('p2', 'stray'))).toBeDefined()
  })

  it('reports a foreign object in the way and leaves it alone, also when it leaves', async () => {
    bench.center.put(nsRef('p3'), namespace('p3'))
    const agent = await bench.agent()
    await agent.poll()
    await bench.edge.call(
      'POST',
      '/api/v1/namespaces/p3/configmaps',
      configMap('p3', 'x', { mine: 'yes' })
    )
    bench.center.put(cmRef('p3', 'x'), configMap('p3', 'x', { mine: 'no' }))
    const seen = bench.center.reports.length
    expect(await agent.poll()).toMatchObject({ ok: true, problems: 1, created: 0, updated: 0 })
    expect(bench.center.reports[seen]?.problems).toEqual([
      expect.objectContaining({ name: 'x', namespace: 'p3', reason: 'ForeignObject' }),
    ])
    expect((await bench.edge.get(cmRef('p3', 'x')))?.data).toEqual({ mine: 'yes' })
    // An unchanged problem is not sent again (until the next heartbeat).
    await agent.poll()
    expect(bench.center.reports.slice(seen + 1).flatMap((r) => r.problems)).toEqual([])
    bench.center.remove(cmRef('p3', 'x'))
    expect(await agent.poll()).toMatchObject({ pruned: 0 })
    expect((await bench.edge.get(cmRef('p3', 'x')))?.data).toEqual({ mine: 'yes' })
  })
})

/** The edge client, recording the order of writes (a real client, not a mock). */
function recording(kube: EdgeKube, calls: string[]): EdgeKube {
  const name = (r: ObjectRef) => `${r.resource}/${r.name}`
  return {
    ...kube,
    apply: (r, body, o) => {
      calls.push(`apply ${name(r)}`)
      return kube.apply(r, body, o)
    },
    delete: (r, o) => {
      calls.push(`delete ${name(r)}`)
      return kube.delete(r, o)
    },
  }
}

describe('natured-both kinds', () => {
  it('applies Namespaces, then CRDs, then the rest; prunes in reverse', async () => {
    const crd = ref(
      'apiextensions.k8s.io/v1',
      'customresourcedefinitions',
      '',
      'gadgets.example.com'
    )
    const cr = ref('example.com/v1', 'gadgets', 'p4', 'g1')
    bench.center.put(cr, {
      apiVersion: 'example.com/v1',
      kind: 'Gadget',
      metadata: { name: 'g1', namespace: 'p4' },
      spec: { size: 1 },
    })
    bench.center.put(crd, {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gadgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
            },
          },
        ],
      },
    })
    bench.center.put(nsRef('p4'), namespace('p4'))
    const calls: string[] = []
    const agent = await newAgent(bench.center, {
      ...bench.edge,
      kube: recording(bench.edge.kube, calls),
    })
    const first = await agent.poll()
    expect(first).toMatchObject({ ok: true, problems: 0 })
    expect(calls.filter((c) => c.includes('p4') || c.includes('gadget'))).toEqual([
      'apply namespaces/p4',
      'apply customresourcedefinitions/gadgets.example.com',
      'apply gadgets/g1',
    ])
    expect((await bench.edge.get(cr))?.spec).toEqual({ size: 1 })
    calls.length = 0
    for (const r of [cr, crd, nsRef('p4')]) bench.center.remove(r)
    expect(await agent.poll()).toMatchObject({ ok: true, pruned: 3 })
    expect(calls).toEqual([
      'delete gadgets/g1',
      'delete customresourcedefinitions/gadgets.example.com',
      'delete namespaces/p4',
    ])
  })
})
