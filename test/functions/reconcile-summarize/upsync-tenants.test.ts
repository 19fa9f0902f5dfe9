/**
 * Upsync never crosses tenants (issue 35, breach 4), in granted mode: teams A (root:wmw) and B
 * (root:wmw-b) both place onto the shared edge e1, A with an upsync set for every pod of every
 * namespace. The edge reports a pod of each team's namespace and a cluster-scoped
 * PersistentVolume; A's summary lists only the pod of its own namespace, never B's (whose env
 * holds B_API_KEY) nor the volume, while B's own set sees B's pod. A grant saying
 * `upsyncAllNamespaces` widens A's view to every namespace and cluster-scoped object again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  EDGE_PLACEMENTS,
  INVENTORIES,
  PLACEMENT_GRANTS,
  WORKSPACES,
} from '../../../lib/apis/gvr.ts'
import { CM, configMap, createWorld, IMW, NS, placement, type World, WS } from './world.ts'

const WS_B = 'root:wmw-b'
let w: World

const grant = (name: string, space: string, upsyncAllNamespaces = false) => ({
  apiVersion: 'tenancy.edgeplane.io/v1alpha1',
  kind: 'PlacementGrant',
  metadata: { name },
  spec: { workloadSpaces: [space], locations: [{ inventory: IMW }], upsyncAllNamespaces },
})
const pod = (namespace: string, name: string, env: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace },
  spec: {
    containers: [
      {
        name: 'c',
        image: 'app',
        env: Object.entries(env).map(([k, value]) => ({ name: k, value })),
      },
    ],
  },
})
const ALL_PODS = [{ apiGroup: '', resources: ['pods'], namespaces: ['*'], names: ['*'] }]
const VOLUMES = [{ apiGroup: '', resources: ['persistentvolumes'], names: ['*'] }]

async function team(space: string, ns: string, upsync: Record<string, unknown>[]) {
  await w.client.create(space, NS, {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns, labels: { team: ns } },
  })
  await w.client.create(space, CM, configMap(ns, 'cfg'))
  await w.client.create(
    space,
    EDGE_PLACEMENTS,
    placement('up', {
      locationSelectors: [{ matchLabels: { loc: 'e1' } }],
      namespaceSelector: { matchLabels: { team: ns } },
      upsync,
    })
  )
}

const upsyncOf = async (space: string) =>
  ((await w.client.get(space, EDGE_PLACEMENTS, 'up'))?.status as any)?.summary?.upsync

beforeAll(async () => {
  w = await createWorld()
  await w.client.create('root', WORKSPACES, {
    apiVersion: 'tenancy.kcp.io/v1alpha1',
    kind: 'Workspace',
    metadata: { name: 'wmw-b' },
  })
  await w.client.create('root', INVENTORIES, {
    apiVersion: 'tenancy.edgeplane.io/v1alpha1',
    kind: 'Inventory',
    metadata: { name: 'imw' },
    spec: { space: IMW },
  })
  await w.client.create('root', PLACEMENT_GRANTS, grant('team-a', WS))
  await w.client.create('root', PLACEMENT_GRANTS, grant('team-b', WS_B))
  await team(WS, 'ans', [...ALL_PODS, ...VOLUMES])
  await team(WS_B, 'bns', [
    { apiGroup: '', resources: ['pods'], namespaces: ['bns'], names: ['*'] },
  ])
  await w.placeAll()
  await w.heartbeat('e1')
  await w.report('e1', {
    upsync: {
      apply: [
        pod('ans', 'a-pod', { A_VALUE: 'a' }),
        pod('bns', 'b-pod', { B_API_KEY: 'secret-of-b' }),
        {
          apiVersion: 'v1',
          kind: 'PersistentVolume',
          metadata: { name: 'pv1' },
          spec: {
            capacity: { storage: '1Gi' },
            accessModes: ['ReadWriteOnce'],
            hostPath: { path: '/d' },
          },
        },
      ],
      delete: [],
    },
  })
  await w.summarize()
}, 120_000)
afterAll(() => w?.close())

const names = (u: any) => (u?.objects ?? []).map((o: any) => `${o.namespace ?? ''}/${o.name}`)

describe('upsync at an edge two tenants share', () => {
  it("returns to a tenant only its own namespaces' objects, never another's nor cluster-scoped ones", async () => {
    const a = await upsyncOf(WS)
    expect(names(a)).toEqual(['ans/a-pod'])
    expect(a).toMatchObject({ count: 1, destinations: 1 })
    expect(JSON.stringify(a)).not.toContain('b-pod')
    expect(names(await upsyncOf(WS_B))).toEqual(['bns/b-pod'])
  })

  it('returns every namespace and cluster-scoped object when the grant says upsyncAllNamespaces', async () => {
    const old = await w.client.get('root', PLACEMENT_GRANTS, 'team-a')
    await w.client.update('root', PLACEMENT_GRANTS, {
      ...grant('team-a', WS, true),
      metadata: old!.metadata,
    })
    await w.summarize()
    expect(names(await upsyncOf(WS))).toEqual(['/pv1', 'ans/a-pod', 'bns/b-pod'])
  })
})
