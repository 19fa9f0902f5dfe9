/**
 * No cross-tenant merge (issue 35), through the in-process hub in granted mode: root holds an
 * Inventory for root:imw and PlacementGrants putting root:wmw-a and root:wmw-a2 in trust scope
 * team-a and root:wmw-b in team-b, all onto the edge florin. Two tenants placing Secret mx/creds
 * there: the copy the edge holds stays tenant A's, nothing of B's in it, its recorded sources A
 * alone; each side gets a TrustScopeConflict Event and a False Translated condition naming the
 * object but neither the other's space nor its keys or values; once B withdraws the conflict is
 * gone. An identity both claim at once goes to neither. Within team-a the copies still merge,
 * and the newer source is the one the server saw change last: a client-written managedFields
 * time of 2099 pins nothing.
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
const WA = 'root:wmw-a'
const WA2 = 'root:wmw-a2'
const WB = 'root:wmw-b'
const SECRETS = { group: '', version: 'v1', resource: 'secrets' }
const CM = { group: '', version: 'v1', resource: 'configmaps' }
const NS = { group: '', version: 'v1', resource: 'namespaces' }
let hub: TestHub
let client: HubClient
let controllers: Controller[]
const ids: Record<string, string> = {}

const converge = () => convergeAll(controllers)

/** The mailbox's live copy of one object (manifest entry and body), if any. */
async function copy(resource: string, name: string) {
  const path = await mailboxPathOf(client, IMW, 'florin')
  const manifest = await hub.deps.projections.getManifest((await client.space(path)).id)
  const e = manifest?.entries.find(
    (x) => x.resource === resource && x.namespace === 'mx' && x.name === name && !x.removing
  )
  if (!e) return undefined
  const body = (await hub.deps.projections.getBodies([e.hash])).get(e.hash) as KubeObject
  return { entry: e, body }
}

async function events(space: string, reason: string): Promise<KubeObject[]> {
  const res = await hub.call('GET', `/clusters/${space}/api/v1/namespaces/mx/events`)
  return (res.body.items as KubeObject[]).filter((e) => e.reason === reason)
}

async function condition(space: string, name: string): Promise<any> {
  const ep = await client.get(space, EDGE_PLACEMENTS, name)
  return ((ep?.status as any)?.conditions ?? []).find((c: any) => c.type === 'Translated')
}

const secret = (name: string, data: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace: 'mx' },
  stringData: undefined,
  data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, btoa(v)])),
})
const decoded = (o: KubeObject | undefined) =>
  Object.fromEntries(
    Object.entries((o?.data as Record<string, string>) ?? {}).map(([k, v]) => [k, atob(v)])
  )

const grant = (name: string, spaces: string[], trustScope: string) => ({
  apiVersion: 'tenancy.edgeplane.io/v1alpha1',
  kind: 'PlacementGrant',
  metadata: { name },
  spec: { workloadSpaces: spaces, locations: [{ inventory: IMW }], trustScope },
})

beforeAll(async () => {
  hub = await createTestHub()
  client = createHubClient(hub.deps, { fieldManager: 'test' })
  controllers = buildControllers(hub.deps, BASE)
  for (const ws of ['imw', 'wmw-a', 'wmw-a2', 'wmw-b'])
    await client.create('root', WORKSPACES, {
      apiVersion: 'tenancy.kcp.io/v1alpha1',
      kind: 'Workspace',
      metadata: { name: ws },
      spec: {},
    })
  await client.create('root', INVENTORIES, {
    apiVersion: 'tenancy.edgeplane.io/v1alpha1',
    kind: 'Inventory',
    metadata: { name: 'imw' },
    spec: { space: IMW },
  })
  await client.create('root', PLACEMENT_GRANTS, grant('team-a', [WA, WA2], 'team-a'))
  await client.create('root', PLACEMENT_GRANTS, grant('team-b', [WB], 'team-b'))
  await client.create(IMW, SYNC_TARGETS, {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'SyncTarget',
    metadata: { name: 'florin', labels: { id: 'florin' } },
  })
  await client.create(IMW, LOCATIONS, {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'Location',
    metadata: { name: 'florin', labels: { env: 'prod' } },
    spec: {
      resource: { group: 'edge.kcp.io', version: 'v1alpha1', resource: 'synctargets' },
      instanceSelector: { matchLabels: { id: 'florin' } },
    },
  })
  for (const space of [WA, WA2, WB]) {
    ids[space] = (await client.space(space)).id
    await client.create(space, NS, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'mx', labels: { app: 'mx' } },
    })
    await client.create(space, EDGE_PLACEMENTS, {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'EdgePlacement',
      metadata: { name: 'ep' },
      spec: {
        locationSelectors: [{ matchLabels: { env: 'prod' } }],
        namespaceSelector: { matchLabels: { app: 'mx' } },
      },
    })
  }
}, 60_000)

afterAll(async () => {
  await hub?.close()
})

describe('two trust scopes placing one identity on one edge', () => {
  it("keeps the edge's copy as tenant A's: nothing of B's in it, B no source of it", async () => {
    await client.create(WA, SECRETS, secret('creds', { user: 'a-user' }))
    await converge()
    expect(decoded((await copy('secrets', 'creds'))?.body)).toEqual({ user: 'a-user' })
    await client.create(WB, SECRETS, secret('creds', { user: 'b-user', password: 'b-secret' }))
    await converge()
    const held = await copy('secrets', 'creds')
    expect(decoded(held?.body)).toEqual({ user: 'a-user' })
    expect(held?.entry.sources?.map((s) => s.space)).toEqual([ids[WA]])
  })

  it('tells each side, without the other side’s space, keys or values', async () => {
    for (const [space, other] of [
      [WA, WB],
      [WB, WA],
    ] as const) {
      const [event, ...more] = await events(space, 'TrustScopeConflict')
      expect(more).toEqual([])
      expect(event?.involvedObject).toMatchObject({
        kind: 'Secret',
        namespace: 'mx',
        name: 'creds',
      })
      expect(event?.message).toContain('secrets mx/creds is also placed from another trust scope')
      const cond = await condition(space, 'ep')
      expect(cond).toMatchObject({ status: 'False', reason: 'TrustScopeConflict' })
      for (const text of [event?.message, cond.message]) {
        for (const hidden of [ids[other], 'password', 'b-secret', 'a-user', 'b-user'])
          expect(text).not.toContain(hidden)
      }
    }
  })

  it('sends an identity both claim at once to neither', async () => {
    await client.create(WA, SECRETS, secret('fresh', { k: 'a' }))
    await client.create(WB, SECRETS, secret('fresh', { k: 'b' }))
    await converge()
    expect(await copy('secrets', 'fresh')).toBeUndefined()
    expect(
      (await events(WB, 'TrustScopeConflict'))
        .map((e) => (e.involvedObject as KubeObject['metadata']).name)
        .sort()
    ).toEqual(['creds', 'fresh'])
  })

  it('clears the conflict once one side withdraws', async () => {
    await client.delete(WB, SECRETS, 'creds', { namespace: 'mx' })
    await client.delete(WB, SECRETS, 'fresh', { namespace: 'mx' })
    await converge()
    expect(decoded((await copy('secrets', 'creds'))?.body)).toEqual({ user: 'a-user' })
    expect(decoded((await copy('secrets', 'fresh'))?.body)).toEqual({ k: 'a' })
    expect(await condition(WA, 'ep')).toMatchObject({ status: 'True' })
  })
})

describe('one trust scope', () => {
  const cm = (data: Record<string, string>, meta: Partial<KubeObject['metadata']> = {}) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'settings', namespace: 'mx', ...meta },
    data,
  })
  const pinned = [
    {
      manager: 'kubectl-edit',
      operation: 'Update' as const,
      apiVersion: 'v1',
      time: '2099-01-01T00:00:00Z',
      fieldsType: 'FieldsV1' as const,
      fieldsV1: { 'f:data': { 'f:color': {} } },
    },
  ]

  it('still merges, and a managedFields time of 2099 does not pin a version', async () => {
    await client.create(WA2, CM, cm({ color: 'pinned', onlyA2: 'x' }, { managedFields: pinned }))
    await converge()
    await client.create(WA, CM, cm({ color: 'red', onlyA: 'y' }))
    await converge()
    const merged = await copy('configmaps', 'settings')
    expect(merged?.body.data).toEqual({ color: 'red', onlyA: 'y', onlyA2: 'x' })
    expect(merged?.entry.sources?.map((s) => s.space).sort()).toEqual([ids[WA], ids[WA2]].sort())
    const [event] = await events(WA, 'MergeConflict')
    expect(event?.message).toContain(ids[WA2])
    // A's later update wins again over the pinned time; A2's own later update wins after it.
    const a2 = (await client.get(WA2, CM, 'settings', 'mx')) as KubeObject
    await client.update(WA2, CM, { ...a2, data: { color: 'green', onlyA2: 'x' } })
    await converge()
    expect((await copy('configmaps', 'settings'))?.body.data).toMatchObject({ color: 'green' })
  })
})
