/**
 * The edge's built-ins against a real edge API: the agent never creates, changes or deletes a
 * built-in Namespace or the definition of a built-in API group (a CRD whose group is one the
 * cluster serves by itself), while objects may still go INTO a built-in namespace; a Namespace
 * the agent created and the operator later declares built-in is kept when it leaves the desired
 * state (its record is dropped, nothing is deleted).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { DOWNSYNCED_ANNOTATION } from '../../../lib/edge/protocol.ts'
import { type FakeCenter, startFakeCenter } from './fake-center.ts'
import {
  cmRef,
  configMap,
  type Edge,
  namespace,
  newAgent,
  nsRef,
  ref,
  startEdge,
} from './fixture.ts'

let edge: Edge
let center: FakeCenter
beforeAll(async () => {
  edge = await startEdge()
})
afterAll(async () => {
  await edge?.close()
})
beforeEach(async () => {
  center = await startFakeCenter('mb-builtins')
})
afterEach(async () => {
  await center?.close()
})

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
  ref('apiextensions.k8s.io', 'v1', 'customresourcedefinitions', '', name)

describe('built-ins', () => {
  it('never defines a built-in group or touches a built-in namespace; objects may go into one', async () => {
    center.put(crdRef('deployments.apps'), crd('deployments.apps', 'apps', 'Deployment'))
    center.put(nsRef('default'), namespace('default', { owner: 'center' }))
    center.put(cmRef('default', 'placed'), configMap('default', 'placed', { k: 'v' }))
    const agent = await newAgent(center, edge)
    expect(await agent.poll()).toMatchObject({ ok: true, created: 1, problems: 0 })
    expect(await edge.get(crdRef('deployments.apps'))).toBeUndefined()
    const builtin = await edge.get(nsRef('default'))
    expect(builtin?.metadata.labels?.owner).toBeUndefined()
    expect(builtin?.metadata.annotations?.[DOWNSYNCED_ANNOTATION]).toBeUndefined()
    expect((await edge.get(cmRef('default', 'placed')))?.data).toEqual({ k: 'v' })
    expect([...agent.inspect().owned.keys()]).toEqual(['/configmaps/default/placed'])
    // Gone from the desired state: only the agent's own object goes.
    center.remove(crdRef('deployments.apps'))
    center.remove(nsRef('default'))
    center.remove(cmRef('default', 'placed'))
    expect(await agent.poll()).toMatchObject({ ok: true, pruned: 1 })
    expect(await edge.get(nsRef('default'))).toBeDefined()
    expect(await edge.get(cmRef('default', 'placed'))).toBeUndefined()
  })

  it('keeps a Namespace it created once the operator declares it built-in', async () => {
    center.put(nsRef('tools'), namespace('tools'))
    const first = await newAgent(center, edge)
    expect(await first.poll()).toMatchObject({ ok: true, created: 1 })
    const uid = (await edge.get(nsRef('tools')))?.metadata.uid
    const builtinNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease', 'tools']
    const second = await newAgent(center, edge, { stateDir: first.stateDir, builtinNamespaces })
    center.put(nsRef('tools'), namespace('tools', { changed: 'yes' }))
    expect(await second.poll()).toMatchObject({ ok: true, created: 0, updated: 0, pruned: 0 })
    expect((await edge.get(nsRef('tools')))?.metadata.labels?.changed).toBeUndefined()
    center.remove(nsRef('tools'))
    expect(await second.poll()).toMatchObject({ ok: true, pruned: 0 })
    expect((await edge.get(nsRef('tools')))?.metadata.uid).toBe(uid)
    expect(second.inspect().owned.size).toBe(0)
  })
})
