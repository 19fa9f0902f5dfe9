/**
 * Overlapping workloads through the in-process hub: two workload spaces send objects of the same
 * key or group to one destination (single-team mode: one trust scope). The mailbox gets one merged
 * copy (labels and data key by key, the most recently updated source winning a conflict), each space an Event naming the other
 * space and the fields, each placement a False `Translated` condition; a CRD served at different
 * versions is copied and listed in the SyncerConfig at the chosen version, remembered in the
 * key-value store; a source with no version in common is left out and reported.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildControllers } from '../../../functions/controllers.ts'
import {
  manifestVersions,
  rememberedVersions,
  VERSION_MEMORY_NS,
} from '../../../functions/reconcile-translate/version-memory.ts'
import { EDGE_PLACEMENTS, LOCATIONS, SYNC_TARGETS, WORKSPACES } from '../../../lib/apis/gvr.ts'
import { createHubClient, type HubClient } from '../../../lib/hub/client.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import type { Controller } from '../../../lib/reconcile/types.ts'
import { BASE, createTestHub, type TestHub } from '../../helpers/hub.ts'
import { convergeAll, mailboxPathOf } from './converge.ts'

const IMW = 'root:imw'
const WA = 'root:wmw-a'
const WB = 'root:wmw-b'
const CM = { group: '', version: 'v1', resource: 'configmaps' }
const NS = { group: '', version: 'v1', resource: 'namespaces' }
const CRDS = { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' }
const widgets = (version: string) => ({ group: 'example.io', version, resource: 'widgets' })
let hub: TestHub
let client: HubClient
let controllers: Controller[]
const ids: Record<string, string> = {}

const converge = () => convergeAll(controllers)

async function mailbox(): Promise<{ path: string; id: string }> {
  const path = await mailboxPathOf(client, IMW, 'florin')
  return { path, id: (await client.space(path)).id }
}

/** The mailbox's live manifest entries (no tombstones) of a group/resource with their bodies. */
async function copies(group: string, resource: string) {
  const mb = await mailbox()
  const manifest = await hub.deps.projections.getManifest(mb.id)
  const entries = (manifest?.entries ?? []).filter(
    (e) => e.group === group && e.resource === resource && !(e as { removing?: string }).removing
  )
  const bodies = await hub.deps.projections.getBodies(entries.map((e) => e.hash))
  return entries.map((e) => ({ ...e, body: bodies.get(e.hash) as KubeObject }))
}

/** The step's memory for the mailbox: its item, and the manifest's live copies for the rest. */
async function remembered() {
  const mb = await mailbox()
  const item = await hub.deps.kv.get<Record<string, string>>(VERSION_MEMORY_NS, mb.id)
  const manifest = await hub.deps.projections.getManifest(mb.id)
  return rememberedVersions(item?.value, manifestVersions(manifest))
}

async function events(space: string, reason: string): Promise<KubeObject[]> {
  const res = await hub.call('GET', `/clusters/${space}/api/v1/namespaces/common/events`)
  return (res.body.items as KubeObject[]).filter((e) => e.reason === reason)
}

async function condition(space: string, name: string): Promise<any> {
  const ep = await client.get(space, EDGE_PLACEMENTS, name)
  return ((ep?.status as any)?.conditions ?? []).find((c: any) => c.type === 'Translated')
}

const crd = (versions: string[], storage: string) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.io' },
  spec: {
    group: 'example.io',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: versions.map((name) => ({
      name,
      served: true,
      storage: name === storage,
      schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
    })),
  },
})
const widget = (version: string, name: string) => ({
  apiVersion: `example.io/${version}`,
  kind: 'Widget',
  metadata: { name, namespace: 'common' },
  spec: { size: 1 },
})

beforeAll(async () => {
  hub = await createTestHub()
  client = createHubClient(hub.deps, { fieldManager: 'test' })
  controllers = buildControllers(hub.deps, BASE)
  for (const ws of ['imw', 'wmw-a', 'wmw-b'])
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
    metadata: { name: 'florin', labels: { env: 'prod' } },
    spec: {
      resource: { group: 'edge.kcp.io', version: 'v1alpha1', resource: 'synctargets' },
      instanceSelector: { matchLabels: { id: 'florin' } },
    },
  })
  for (const [space, name, team] of [
    [WA, 'ep-a', 'a'],
    [WB, 'ep-b', 'b'],
  ] as const) {
    ids[space] = (await client.space(space)).id
    await client.create(space, NS, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'common', labels: { app: 'common', team } },
    })
    await client.create(space, EDGE_PLACEMENTS, {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'EdgePlacement',
      metadata: { name },
      spec: {
        locationSelectors: [{ matchLabels: { env: 'prod' } }],
        namespaceSelector: { matchLabels: { app: 'common' } },
      },
    })
  }
}, 60_000)

afterAll(async () => {
  await hub?.close()
})

describe('overlapping workloads', () => {
  it('merges one key from two spaces into one copy and reports it on both sides', async () => {
    await client.create(WA, CM, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'shared', namespace: 'common', labels: { team: 'a', tier: 'web' } },
      data: { a: '1', onlyA: 'x' },
    })
    await client.create(WB, CM, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'shared', namespace: 'common', labels: { team: 'b' } },
      data: { a: '2', onlyB: 'y' },
    })
    await converge()
    // the most recently updated source wins: B, written after A; the steps' own later writes on
    // the sources (a source finalizer, the executing count) do not count (authored-order.ts)
    const [copy, ...more] = await copies('', 'configmaps')
    expect(more).toEqual([])
    expect(copy?.body.data).toEqual({ a: '2', onlyA: 'x', onlyB: 'y' })
    expect(copy?.body.metadata.labels).toEqual({
      'edge.kcp.io/projected': 'yes',
      team: 'b',
      tier: 'web',
    })
    for (const [space, other, ep] of [
      [WA, WB, 'ep-a'],
      [WB, WA, 'ep-b'],
    ] as const) {
      const found = await events(space, 'MergeConflict')
      expect(found).toHaveLength(1)
      expect(found[0]?.involvedObject).toMatchObject({ kind: 'ConfigMap', name: 'shared' })
      expect(found[0]?.message).toContain(ids[other])
      expect(found[0]?.message).toContain('data[a]')
      expect(found[0]?.message).toContain('metadata.labels[team]')
      expect(found[0]?.message).not.toContain('onlyA')
      const cond = await condition(space, ep)
      expect(cond.status).toBe('False')
      expect(cond.reason).toBe('MergeConflict')
      expect(cond.message).toContain('configmaps common/shared')
    }
    // the implied Namespaces (different labels) are no sources: nothing to merge or report
    expect((await events(WA, 'MergeConflict')).map((e) => e.involvedObject)).not.toContainEqual(
      expect.objectContaining({ kind: 'Namespace' })
    )
  })

  it('writes nothing and piles up no Events when run again', async () => {
    const outcomes = await converge()
    expect(outcomes.filter((o) => o.startsWith('translate'))).toEqual([
      'translate placements 2: unchanged',
    ])
    expect(await events(WA, 'MergeConflict')).toHaveLength(1)
  })

  it('turns the condition True again when the sources agree', async () => {
    const b = (await client.get(WB, CM, 'shared', 'common'))!
    await client.update(WB, CM, {
      ...b,
      metadata: { ...b.metadata, labels: { team: 'a' } },
      data: { a: '1', onlyB: 'y' },
    })
    await converge()
    const [copy] = await copies('', 'configmaps')
    expect(copy?.body.data).toEqual({ a: '1', onlyA: 'x', onlyB: 'y' })
    expect((await condition(WA, 'ep-a')).status).toBe('True')
    expect((await condition(WB, 'ep-b')).status).toBe('True')
  })

  it('copies a CRD-defined kind at the version both spaces serve, in the SyncerConfig too', async () => {
    await client.create(WA, CRDS, crd(['v1'], 'v1'))
    await client.create(WB, CRDS, crd(['v2', 'v1'], 'v2'))
    await client.create(WA, widgets('v1'), widget('v1', 'from-a'))
    await client.create(WB, widgets('v2'), widget('v2', 'from-b'))
    await converge()
    const found = await copies('example.io', 'widgets')
    expect(found.map((c) => [c.name, c.version, c.body.apiVersion]).sort()).toEqual([
      ['from-a', 'v1', 'example.io/v1'],
      ['from-b', 'v1', 'example.io/v1'],
    ])
    const [sc] = await copies('edge.kcp.io', 'syncerconfigs')
    const triples = (sc?.body.spec as any)?.namespaceScope?.resources
    expect(triples).toContainEqual({ group: 'example.io', resource: 'widgets', apiVersion: 'v1' })
    expect(await remembered()).toMatchObject({ 'example.io': 'v1' })
  })

  it('moves to the highest common version once the old one is no longer a candidate', async () => {
    const old = (await client.get(WA, CRDS, 'widgets.example.io'))!
    await client.update(WA, CRDS, { ...crd(['v2', 'v1'], 'v1'), metadata: old.metadata })
    await converge()
    const found = await copies('example.io', 'widgets')
    expect(found.map((c) => c.body.apiVersion)).toEqual(['example.io/v2', 'example.io/v2'])
    expect(await remembered()).toMatchObject({ 'example.io': 'v2' })
  })

  it('leaves out the objects of a space with no version in common, and reports it', async () => {
    const old = (await client.get(WA, CRDS, 'widgets.example.io'))!
    await client.update(WA, CRDS, { ...crd(['v1'], 'v1'), metadata: old.metadata })
    const oldB = (await client.get(WB, CRDS, 'widgets.example.io'))!
    await client.update(WB, CRDS, { ...crd(['v2'], 'v2'), metadata: oldB.metadata })
    await converge()
    const found = await copies('example.io', 'widgets')
    expect(found.map((c) => [c.name, c.body.apiVersion])).toEqual([['from-b', 'example.io/v2']])
    const cond = await condition(WA, 'ep-a')
    expect(cond.status).toBe('False')
    expect(cond.reason).toBe('APIVersionConflict')
    const [left] = await events(WA, 'APIVersionConflict')
    expect(left?.involvedObject).toMatchObject({ kind: 'Widget', name: 'from-a' })
    expect(left?.message).toContain('is not sent')
    expect(left?.message).toContain(ids[WB])
    expect((await condition(WB, 'ep-b')).reason).toBe('Projected')
  })
})
