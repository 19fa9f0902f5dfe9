/**
 * The edge's built-ins against a real edge API: the agent never creates, changes or deletes a
 * built-in Namespace or the definition of a built-in API group (a CRD whose group is one the
 * cluster serves by itself), while objects may still go INTO a built-in namespace; a Namespace
 * the agent created and the operator later declares built-in is kept when it leaves the desired
 * state (its record is dropped, nothing is deleted).
 */
import { describe, expect, it } from 'vitest'
import { DOWNSYNCED_ANNOTATION } from '../../../lib/edge/protocol.ts'
import { agentBench, cmRef, configMap, namespace, nsRef, ref } from './fixture.ts'

const bench = agentBench('mb-builtins')

const crd = (name: string, group: string, kind: string) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name },
  spec: {
    group,
    scope: 'Namespaced',
    names: { plural: name.split('.')[0], singular: kind.toLowerCase(), kind },
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
const crdRef = (name: string) =>
  ref('apiextensions.k8s.io/v1', 'customresourcedefinitions', '', name)

describe('built-ins', () => {
  it('never defines a built-in group or touches a built-in namespace; objects may go into one', async () => {
    bench.center.put(crdRef('deployments.apps'), crd('deployments.apps', 'apps', 'Deployment'))
    bench.center.put(nsRef('default'), namespace('default', { owner: 'center' }))
    bench.center.put(cmRef('default', 'placed'), configMap('default', 'placed', { k: 'v' }))
    const agent = await bench.agent()
    expect(await agent.poll()).toMatchObject({ ok: true, created: 1, problems: 0 })
    expect(await bench.edge.get(crdRef('deployments.apps'))).toBeUndefined()
    const builtin = await bench.edge.get(nsRef('default'))
    expect(builtin?.metadata.labels?.owner).toBeUndefined()
    expect(builtin?.metadata.annotations?.[DOWNSYNCED_ANNOTATION]).toBeUndefined()
    expect((await bench.edge.get(cmRef('default', 'placed')))?.data).toEqual({ k: 'v' })
    expect([...agent.inspect().owned.keys()]).toEqual(['/configmaps/default/placed'])
    // Gone from the desired state: only the agent's own object goes.
    bench.center.remove(crdRef('deployments.apps'))
    bench.center.remove(nsRef('default'))
    bench.center.remove(cmRef('default', 'placed'))
    expect(await agent.poll()).toMatchObject({ ok: true, pruned: 1 })
    expect(await bench.edge.get(nsRef('default'))).toBeDefined()
    expect(await bench.edge.get(cmRef('default', 'placed'))).toBeUndefined()
  })

  it('keeps a Namespace it created once the operator declares it built-in', async () => {
    bench.center.put(nsRef('tools'), namespace('tools'))
    const first = await bench.agent()
    expect(await first.poll()).toMatchObject({ ok: true, created: 1 })
    const uid = (await bench.edge.get(nsRef('tools')))?.metadata.uid
    const builtinNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease', 'tools']
    const second = await bench.agent({ stateDir: first.stateDir, builtinNamespaces })
    bench.center.put(nsRef('tools'), namespace('tools', { changed: 'yes' }))
    expect(await second.poll()).toMatchObject({ ok: true, created: 0, updated: 0, pruned: 0 })
    expect((await bench.edge.get(nsRef('tools')))?.metadata.labels?.changed).toBeUndefined()
    bench.center.remove(nsRef('tools'))
    expect(await second.poll()).toMatchObject({ ok: true, pruned: 0 })
    expect((await bench.edge.get(nsRef('tools')))?.metadata.uid).toBe(uid)
    expect(second.inspect().owned.size).toBe(0)
  })
})
