/**
 * The tenancy allow list through the translate step (issue 35, breach 5), against the in-process
 * hub with every step run over all its keys: in granted mode, privileged objects a placement
 * selects (a ClusterRoleBinding, a RoleBinding, a MutatingWebhookConfiguration) never reach the
 * mailbox unless a PlacementGrant of the space lists their resource; the placement says so in
 * its Translated condition (reason NotGranted) and a Warning Event per object; the summary counts
 * only what is sent; granting a resource sends it, and withdrawing the grant takes it back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildControllers } from '../../../functions/controllers.ts'
import {
  EDGE_PLACEMENTS,
  INVENTORIES,
  LOCATIONS,
  PLACEMENT_GRANTS,
  SYNC_TARGETS,
  WORKSPACES,
} from '../../../lib/apis/gvr.ts'
import { createHubClient, type HubClient } from '../../../lib/hub/client.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import type { Controller } from '../../../lib/reconcile/types.ts'
import { BASE, createTestHub, type TestHub } from '../../helpers/hub.ts'
import { convergeAll, mailboxPathOf } from './converge.ts'

const IMW = 'root:imw'
const TEAM = 'root:team-a'
const RBAC = 'rbac.authorization.k8s.io'
const ADMISSION = 'admissionregistration.k8s.io'
const gvr = (group: string, resource: string) => ({ group, version: 'v1', resource })
let hub: TestHub
let client: HubClient
let controllers: Controller[]

const converge = () => convergeAll(controllers)

/** The mailbox's live projected copies of the resources the test places. */
async function mailboxContent(): Promise<string[]> {
  const mb = await mailboxPathOf(client, IMW, 'florin')
  const out: string[] = []
  for (const path of [
    'api/v1/configmaps',
    `apis/${RBAC}/v1/rolebindings`,
    `apis/${RBAC}/v1/clusterrolebindings`,
    `apis/${RBAC}/v1/clusterroles`,
    `apis/${ADMISSION}/v1/mutatingwebhookconfigurations`,
  ]) {
    const res = await hub.call('GET', `/clusters/${mb}/${path}`)
    expect(res.status).toBe(200)
    for (const o of res.body.items as KubeObject[])
      if (o.metadata.labels?.['edge.kcp.io/projected'] === 'yes' && !o.metadata.deletionTimestamp)
        out.push(`${path.split('/').pop()}/${o.metadata.namespace ?? ''}/${o.metadata.name}`)
  }
  return out.sort()
}

const grant = (resources: { group: string; resource: string }[]) => ({
  apiVersion: 'tenancy.edgeplane.io/v1alpha1',
  kind: 'PlacementGrant',
  metadata: { name: 'team-a' },
  spec: { workloadSpaces: [TEAM], locations: [{ inventory: IMW }], resources },
})

async function setGrant(resources: { group: string; resource: string }[]): Promise<void> {
  const old = await client.get('root', PLACEMENT_GRANTS, 'team-a')
  await client.update('root', PLACEMENT_GRANTS, { ...grant(resources), metadata: old!.metadata })
}

const condition = async () =>
  ((await client.get(TEAM, EDGE_PLACEMENTS, 'everything'))?.status as any)?.conditions?.find(
    (c: any) => c.type === 'Translated'
  )

const eventsIn = async (ns: string) =>
  (
    (await hub.call('GET', `/clusters/${TEAM}/api/v1/namespaces/${ns}/events`)).body
      .items as KubeObject[]
  ).filter((e) => e.reason === 'NotGranted')

beforeAll(async () => {
  hub = await createTestHub()
  client = createHubClient(hub.deps, { fieldManager: 'test' })
  controllers = buildControllers(hub.deps, BASE)
  for (const ws of ['imw', 'team-a'])
    await client.create('root', WORKSPACES, {
      apiVersion: 'tenancy.kcp.io/v1alpha1',
      kind: 'Workspace',
      metadata: { name: ws },
      spec: {},
    })
  await client.create(IMW, SYNC_TARGETS, {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'SyncTarget',
    metadata: { name: 'florin', labels: { id: 'florin' } },
  })
  await client.create(IMW, LOCATIONS, {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'Location',
    metadata: { name: 'florin', labels: { loc: 'florin' } },
    spec: {
      resource: { group: 'edge.kcp.io', version: 'v1alpha1', resource: 'synctargets' },
      instanceSelector: { matchLabels: { id: 'florin' } },
    },
  })
  await client.create('root', INVENTORIES, {
    apiVersion: 'tenancy.edgeplane.io/v1alpha1',
    kind: 'Inventory',
    metadata: { name: 'imw' },
    spec: { space: IMW },
  })
  await client.create('root', PLACEMENT_GRANTS, grant([{ group: RBAC, resource: 'clusterroles' }]))
  await client.create(TEAM, gvr('', 'namespaces'), {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'shop', labels: { app: 'shop' } },
  })
  await client.create(TEAM, gvr('', 'configmaps'), {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'settings', namespace: 'shop' },
    data: { a: '1' },
  })
  const admin = { apiGroup: RBAC, kind: 'ClusterRole', name: 'cluster-admin' }
  const everyone = [{ apiGroup: RBAC, kind: 'Group', name: 'system:authenticated' }]
  await client.create(TEAM, gvr(RBAC, 'rolebindings'), {
    apiVersion: `${RBAC}/v1`,
    kind: 'RoleBinding',
    metadata: { name: 'admin', namespace: 'shop' },
    roleRef: admin,
    subjects: everyone,
  })
  await client.create(TEAM, gvr(RBAC, 'clusterrolebindings'), {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name: 'take-over' },
    roleRef: admin,
    subjects: everyone,
  })
  await client.create(TEAM, gvr(RBAC, 'clusterroles'), {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRole',
    metadata: { name: 'reader' },
    rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
  })
  await client.create(TEAM, gvr(ADMISSION, 'mutatingwebhookconfigurations'), {
    apiVersion: `${ADMISSION}/v1`,
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: 'everything' },
    webhooks: [],
  })
  await client.create(TEAM, EDGE_PLACEMENTS, {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'EdgePlacement',
    metadata: { name: 'everything' },
    spec: {
      locationSelectors: [{ matchLabels: { loc: 'florin' } }],
      namespaceSelector: { matchLabels: { app: 'shop' } },
      nonNamespacedObjects: [
        { apiGroup: RBAC, resources: ['*'], resourceNames: ['*'] },
        { apiGroup: ADMISSION, resources: ['*'], resourceNames: ['*'] },
      ],
    },
  })
}, 60_000)

afterAll(async () => {
  await hub?.close()
})

describe('privileged objects in granted mode', () => {
  it('sends only the granted ones and says which are not sent, and why', async () => {
    await converge()
    expect(await mailboxContent()).toEqual(['clusterroles//reader', 'configmaps/shop/settings'])
    const summary = ((await client.get(TEAM, EDGE_PLACEMENTS, 'everything'))?.status as any)
      ?.summary
    expect(summary?.objectCount).toBe(2)
    expect(summary?.objects.map((o: any) => o.name).sort()).toEqual(['reader', 'settings'])
    const cond = await condition()
    expect(cond).toMatchObject({ status: 'False', reason: 'NotGranted' })
    expect(cond.message).toContain('ClusterRoleBinding "take-over"')
    expect(cond.message).toContain('RoleBinding "shop/admin"')
    expect(cond.message).toContain('MutatingWebhookConfiguration "everything"')
    expect(cond.message).toContain('spec.resources')
    const clusterScoped = await eventsIn('default')
    expect(clusterScoped.map((e) => (e.involvedObject as { name?: string }).name).sort()).toEqual([
      'everything',
      'take-over',
    ])
    const [rb] = await eventsIn('shop')
    expect(rb?.involvedObject).toMatchObject({ kind: 'RoleBinding', name: 'admin' })
    expect(rb?.message).toContain(`{group: "${RBAC}", resource: "rolebindings"}`)
  })

  it('sends a resource once a grant lists it, and takes it back when the grant goes', async () => {
    await setGrant([{ group: RBAC, resource: '*' }])
    await converge()
    expect(await mailboxContent()).toEqual([
      'clusterrolebindings//take-over',
      'clusterroles//reader',
      'configmaps/shop/settings',
      'rolebindings/shop/admin',
    ])
    expect((await condition()).message).not.toContain('take-over')
    await setGrant([])
    await converge()
    expect(await mailboxContent()).toEqual(['configmaps/shop/settings'])
  })
})
