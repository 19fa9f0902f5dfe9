/**
 * The dry-run preview (lib/placement/preview.ts) judges privileged objects by the same grant as
 * the steps (lib/placement/grant-rule.ts): on a test hub, a ClusterRoleBinding the placement
 * selects is among the objects it would send while the hub is single-team, and once a
 * PlacementGrant covers the space without listing it, it is skipped as NotGranted instead.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeObject } from '../../../lib/apis/decode.ts'
import { EdgePlacementSchema } from '../../../lib/apis/edge-v1alpha1.ts'
import { PLACEMENT_GRANTS, WORKSPACES } from '../../../lib/apis/gvr.ts'
import { createHubClient, type HubClient } from '../../../lib/hub/client.ts'
import { previewDepsOf, previewPlacement } from '../../../lib/placement/preview.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

const WS = 'root:wmw-g'
const RBAC = 'rbac.authorization.k8s.io'
let hub: TestHub
let client: HubClient
let spaceId: string

const ep = () => {
  const d = decodeObject(EdgePlacementSchema, {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'EdgePlacement',
    metadata: { name: 'p' },
    spec: {
      namespaceSelector: { matchLabels: { team: 'g' } },
      nonNamespacedObjects: [{ apiGroup: RBAC, resources: ['*'], resourceNames: ['*'] }],
    },
  })
  if (!d.ok) throw new Error('invalid placement')
  return d.value
}

beforeAll(async () => {
  hub = await createTestHub()
  client = createHubClient(hub.deps, { fieldManager: 'test' })
  await client.create('root', WORKSPACES, {
    apiVersion: 'tenancy.kcp.io/v1alpha1',
    kind: 'Workspace',
    metadata: { name: 'wmw-g' },
  })
  spaceId = (await client.space(WS)).id
  await client.create(
    WS,
    { group: '', version: 'v1', resource: 'namespaces' },
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'g', labels: { team: 'g' } } }
  )
  await client.create(
    WS,
    { group: '', version: 'v1', resource: 'configmaps' },
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'g' }, data: {} }
  )
  await client.create(
    WS,
    { group: RBAC, version: 'v1', resource: 'clusterrolebindings' },
    {
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name: 'take-over' },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ apiGroup: RBAC, kind: 'Group', name: 'system:authenticated' }],
    }
  )
})
afterAll(() => hub.close())

const names = (items: { resource: string; name: string }[]) =>
  items.map((o) => `${o.resource}/${o.name}`)

describe('previewPlacement and the allow list', () => {
  it('previews a privileged object as sent while the hub is single-team', async () => {
    const p = await previewPlacement(previewDepsOf(hub.deps), spaceId, ep())
    expect(names(p.objects.items)).toEqual(['configmaps/c', 'clusterrolebindings/take-over'])
    expect(p.skipped.count).toBe(0)
  })

  it('previews it as NotGranted once a grant covers the space without listing it', async () => {
    await client.create('root', PLACEMENT_GRANTS, {
      apiVersion: 'tenancy.edgeplane.io/v1alpha1',
      kind: 'PlacementGrant',
      metadata: { name: 'g' },
      spec: { workloadSpaces: [WS] },
    })
    const p = await previewPlacement(previewDepsOf(hub.deps), spaceId, ep())
    expect(names(p.objects.items)).toEqual(['configmaps/c'])
    expect(p.skipped.items).toEqual([
      { group: RBAC, resource: 'clusterrolebindings', name: 'take-over', reason: 'NotGranted' },
    ])
  })
})
