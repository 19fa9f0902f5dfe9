/**
 * The translate step through the in-process hub: an inventory space with three SyncTargets and
 * Locations, workload spaces with namespaces, ConfigMaps and EdgePlacements; after each change the
 * mailbox, where and translate steps run over all their keys (as the resync would) and each
 * mailbox's content is read back through the hub API, as kubectl would see it. A copy that
 * leaves stays as a terminating tombstone (`removing`) until the edge confirms it gone, which
 * these tests do as an agent's report would (`confirm`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildControllers } from '../../../functions/controllers.ts'
import {
  EDGE_PLACEMENTS,
  ESPW,
  LOCATIONS,
  SYNC_TARGETS,
  WORKSPACES,
} from '../../../lib/apis/gvr.ts'
import { applyRemovals } from '../../../lib/edge/report-removals.ts'
import { createHubClient, type HubClient } from '../../../lib/hub/client.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { silentLogger } from '../../../lib/log.ts'
import { runKeys } from '../../../lib/reconcile/run.ts'
import type { Controller } from '../../../lib/reconcile/types.ts'
import type { ProjectionStore } from '../../../lib/store/projection-types.ts'
import { agentsPolled } from '../../helpers/agents-polled.ts'
import { BASE, createTestHub, type TestHub } from '../../helpers/hub.ts'

const IMW = 'root:imw'
const WA = 'root:wmw-a'
const WB = 'root:wmw-b'
const CM = { group: '', version: 'v1', resource: 'configmaps' }
const NS = { group: '', version: 'v1', resource: 'namespaces' }
let hub: TestHub
let client: HubClient
let controllers: Controller[]

const workspace = (name: string) => ({
  apiVersion: 'tenancy.kcp.io/v1alpha1',
  kind: 'Workspace',
  metadata: { name },
  spec: {},
})
const syncTarget = (name: string) => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'SyncTarget',
  metadata: { name, labels: { id: name } },
})
const location = (name: string, env: string) => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'Location',
  metadata: { name, labels: { env, loc: name } },
  spec: {
    resource: { group: 'edge.kcp.io', version: 'v1alpha1', resource: 'synctargets' },
    instanceSelector: { matchLabels: { id: name } },
  },
})
const namespace = (name: string, labels: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, labels },
})
const configMap = (ns: string, name: string, data: Record<string, string>, extra = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: ns, ...extra },
  data,
})
const placement = (name: string, spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'EdgePlacement',
  metadata: { name },
  spec: spec as KubeObject['spec'],
})

/** Runs every step over every key it owns, twice (the second pass must change nothing). */
async function converge(): Promise<string[]> {
  let outcomes: string[] = []
  for (let pass = 0; pass < 2; pass++) {
    outcomes = []
    for (const c of controllers) {
      const page = await c.listKeys(undefined, 10_000)
      const res = await runKeys(c, page.keys, silentLogger)
      for (const r of res) {
        if (!r.ok) throw new Error(`${c.name} ${r.key}: ${r.outcome}`)
        outcomes.push(`${c.name} ${r.outcome}`)
      }
    }
    await agentsPolled(client, hub.deps.projections)
  }
  return outcomes
}

async function mailboxOf(target: string): Promise<string> {
  const st = await client.get(IMW, SYNC_TARGETS, target)
  const imw = await client.space(IMW)
  return `${ESPW}:${imw.id}-mb-${st?.metadata.uid}`
}

/** Projected copies of a mailbox as `resource/namespace/name`, read through the HTTP API. */
async function copies(target: string): Promise<{ live: string[]; removing: string[] }> {
  const mb = await mailboxOf(target)
  const out = { live: [] as string[], removing: [] as string[] }
  for (const path of ['api/v1/configmaps', 'api/v1/namespaces']) {
    const res = await hub.call('GET', `/clusters/${mb}/${path}`)
    expect(res.status).toBe(200)
    for (const o of res.body.items as KubeObject[]) {
      if (o.metadata.labels?.['edge.kcp.io/projected'] !== 'yes') continue
      const name = `${path.split('/').pop()}/${o.metadata.namespace ?? ''}/${o.metadata.name}`
      if (o.metadata.deletionTimestamp) {
        expect(o.metadata.finalizers).toContain('edge.kcp.io/edge-removal')
        out.removing.push(name)
      } else out.live.push(name)
    }
  }
  return { live: out.live.sort(), removing: out.removing.sort() }
}

/** A mailbox's live content (tombstones left out). */
const content = async (target: string) => (await copies(target)).live
/** A mailbox's tombstones: copies leaving, waiting for the edge. */
const removing = async (target: string) => (await copies(target)).removing

/** What the edge's agent reports once it removed every tombstone of the mailbox. */
async function confirm(target: string): Promise<void> {
  const mbId = (await client.space(await mailboxOf(target))).id
  const p = hub.deps.projections
  const manifest = await p.getManifest(mbId)
  const refs = (manifest?.entries ?? []).filter((e) => e.removing)
  const out = await applyRemovals(p, mbId, refs, () => p.getManifest(mbId))
  expect(out.rejected).toEqual([])
}

async function syncerConfig(target: string): Promise<any> {
  const mb = await mailboxOf(target)
  const res = await hub.call(
    'GET',
    `/clusters/${mb}/apis/edge.kcp.io/v1alpha1/syncerconfigs/the-one`
  )
  expect(res.status).toBe(200)
  return res.body
}

beforeAll(async () => {
  hub = await createTestHub()
  client = createHubClient(hub.deps, { fieldManager: 'test' })
  controllers = buildControllers(hub.deps, BASE)
  for (const ws of ['imw', 'wmw-a', 'wmw-b']) await client.create('root', WORKSPACES, workspace(ws))
  for (const [name, env] of [
    ['florin', 'prod'],
    ['guilder', 'prod'],
    ['zloty', 'dev'],
  ] as const) {
    await client.create(IMW, SYNC_TARGETS, syncTarget(name))
    await client.create(IMW, LOCATIONS, location(name, env))
  }
  await client.create(WA, NS, namespace('common', { app: 'common' }))
  await client.create(WA, NS, namespace('special', { app: 'special' }))
  await client.create(WA, CM, configMap('common', 'cm1', { a: '1' }))
  await client.create(WA, CM, configMap('common', 'cm2', { b: '2' }))
  await client.create(WA, CM, configMap('special', 'cm3', { c: '3' }))
  await client.create(WA, CM, configMap('common', 'kube-root-ca.crt', { 'ca.crt': 'x' }))
  await client.create(
    WA,
    EDGE_PLACEMENTS,
    placement('ep-common', {
      locationSelectors: [{ matchLabels: { env: 'prod' } }],
      namespaceSelector: { matchLabels: { app: 'common' } },
      upsync: [
        {
          apiGroup: 'group1.test',
          resources: ['sprockets'],
          namespaces: ['orbital'],
          names: ['george'],
        },
      ],
    })
  )
}, 60_000)

afterAll(async () => {
  await hub?.close()
})

describe('translate', () => {
  it('projects the selected namespaces into every matched mailbox, and nothing elsewhere', async () => {
    await converge()
    const want = ['configmaps/common/cm1', 'configmaps/common/cm2', 'namespaces//common']
    expect(await content('florin')).toEqual(want)
    expect(await content('guilder')).toEqual(want)
    expect(await content('zloty')).toEqual([])
  })

  it('makes copies as the placement translator does', async () => {
    const mb = await mailboxOf('florin')
    const res = await hub.call('GET', `/clusters/${mb}/api/v1/namespaces/common/configmaps/cm1`)
    expect(res.status).toBe(200)
    const copy = res.body as KubeObject
    const mbId = (await client.space(mb)).id
    expect(copy.data).toEqual({ a: '1' })
    expect(copy.metadata.labels).toEqual({ 'edge.kcp.io/projected': 'yes' })
    expect(copy.metadata.annotations?.['kcp.io/cluster']).toBe(mbId)
    expect(copy.metadata.ownerReferences).toBeUndefined()
    expect(copy.metadata.managedFields).toBeUndefined()
    const source = await client.get(WA, CM, 'cm1', 'common')
    expect(copy.metadata.uid).not.toBe(source?.metadata.uid)
  })

  it('writes SyncerConfig the-one with the union and correct triples', async () => {
    const sc = await syncerConfig('florin')
    expect(sc.spec.namespaceScope.namespaces).toEqual(['common'])
    const triples = sc.spec.namespaceScope.resources as {
      group: string
      resource: string
      apiVersion: string
    }[]
    expect(triples).toContainEqual({ group: '', resource: 'configmaps', apiVersion: 'v1' })
    expect(triples).toContainEqual({ group: 'apps', resource: 'deployments', apiVersion: 'v1' })
    expect(triples.some((t) => t.resource === 'events' || t.group === 'edge.kcp.io')).toBe(false)
    expect(sc.spec.upsync).toEqual([
      {
        apiGroup: 'group1.test',
        resources: ['sprockets'],
        namespaces: ['orbital'],
        names: ['george'],
      },
    ])
    const empty = await syncerConfig('zloty')
    expect(empty.spec.namespaceScope).toEqual({})
  })

  it('is idempotent: a second pass writes nothing', async () => {
    const outcomes = await converge()
    expect(
      outcomes.filter((o) => o.startsWith('translate')).every((o) => o.endsWith('unchanged'))
    ).toBe(true)
  })

  it('adds overlapping placements without duplicates', async () => {
    await client.create(
      WA,
      EDGE_PLACEMENTS,
      placement('ep-both', {
        locationSelectors: [{ matchLabels: { loc: 'florin' } }, { matchLabels: { env: 'dev' } }],
        namespaceSelector: { matchExpressions: [{ key: 'app', operator: 'Exists' }] },
      })
    )
    await converge()
    const all = [
      'configmaps/common/cm1',
      'configmaps/common/cm2',
      'configmaps/special/cm3',
      'namespaces//common',
      'namespaces//special',
    ]
    expect(await content('florin')).toEqual(all)
    expect(await content('zloty')).toEqual(all)
    expect(await content('guilder')).toEqual([
      'configmaps/common/cm1',
      'configmaps/common/cm2',
      'namespaces//common',
    ])
  })

  it('follows a Location relabelled out of and back into a selector; Namespaces stay', async () => {
    const loc = (await client.get(IMW, LOCATIONS, 'guilder'))!
    await client.update(IMW, LOCATIONS, {
      ...loc,
      metadata: { ...loc.metadata, labels: { env: 'staging', loc: 'guilder' } },
    })
    await converge()
    expect(await content('guilder')).toEqual(['namespaces//common'])
    expect(await removing('guilder')).toEqual(['configmaps/common/cm1', 'configmaps/common/cm2'])
    const mb = await mailboxOf('guilder')
    const uidOf = async () =>
      (await hub.call('GET', `/clusters/${mb}/api/v1/namespaces/common/configmaps/cm1`)).body
        .metadata.uid
    const before = await uidOf()
    const back = (await client.get(IMW, LOCATIONS, 'guilder'))!
    await client.update(IMW, LOCATIONS, {
      ...back,
      metadata: { ...back.metadata, labels: { env: 'prod', loc: 'guilder' } },
    })
    await converge()
    expect(await content('guilder')).toEqual([
      'configmaps/common/cm1',
      'configmaps/common/cm2',
      'namespaces//common',
    ])
    // Revived, not re-created: the copy keeps its uid.
    expect(await removing('guilder')).toEqual([])
    expect(await uidOf()).toBe(before)
  })

  it('follows edits, namespace relabels and deletions at the source', async () => {
    const cm = (await client.get(WA, CM, 'cm1', 'common'))!
    await client.update(WA, CM, { ...cm, data: { a: 'changed' } })
    const ns = (await client.get(WA, NS, 'special'))!
    await client.update(WA, NS, { ...ns, metadata: { ...ns.metadata, labels: {} } })
    await client.delete(WA, CM, 'cm2', { namespace: 'common' })
    await converge()
    const mb = await mailboxOf('florin')
    const copy = await hub.call('GET', `/clusters/${mb}/api/v1/namespaces/common/configmaps/cm1`)
    expect(copy.body.data).toEqual({ a: 'changed' })
    expect(await content('florin')).toEqual([
      'configmaps/common/cm1',
      'namespaces//common',
      'namespaces//special',
    ])
    // Leaving florin: cm2 (deleted at the source), cm3 (its namespace unselected).
    expect(await removing('florin')).toEqual(['configmaps/common/cm2', 'configmaps/special/cm3'])
    // Until the edge confirms, nothing moves; then the tombstones go.
    await converge()
    expect(await removing('florin')).toHaveLength(2)
    for (const t of ['florin', 'guilder', 'zloty']) await confirm(t)
    await converge()
    expect(await removing('florin')).toEqual([])
    expect(await removing('guilder')).toEqual([])
  })

  it('treats an object with a deletionTimestamp as gone', async () => {
    await client.create(
      WA,
      CM,
      configMap('common', 'held', { h: '1' }, { finalizers: ['test/hold'] })
    )
    await converge()
    expect(await content('florin')).toContain('configmaps/common/held')
    await client.delete(WA, CM, 'held', { namespace: 'common' })
    expect((await client.get(WA, CM, 'held', 'common'))?.metadata.deletionTimestamp).toBeTruthy()
    await converge()
    expect(await content('florin')).not.toContain('configmaps/common/held')
    expect(await removing('florin')).toContain('configmaps/common/held')
  })

  it('gives a SyncTarget re-created with a new uid a new, complete mailbox', async () => {
    const old = await mailboxOf('guilder')
    await client.delete(IMW, SYNC_TARGETS, 'guilder')
    await client.create(IMW, SYNC_TARGETS, syncTarget('guilder'))
    await converge()
    await converge()
    const fresh = await mailboxOf('guilder')
    expect(fresh).not.toBe(old)
    expect(await content('guilder')).toEqual(['configmaps/common/cm1', 'namespaces//common'])
  })

  it('merges an object two workload spaces send to one destination, newest value wins, and reports it', async () => {
    await client.create(WB, NS, namespace('common', { app: 'common' }))
    await client.create(WB, CM, configMap('common', 'cm1', { a: 'from-b' }))
    await client.create(
      WB,
      EDGE_PLACEMENTS,
      placement('ep-b', {
        locationSelectors: [{ matchLabels: { loc: 'zloty' } }],
        namespaceSelector: { matchLabels: { app: 'common' } },
      })
    )
    await converge()
    const mb = await mailboxOf('zloty')
    const copy = await hub.call('GET', `/clusters/${mb}/api/v1/namespaces/common/configmaps/cm1`)
    expect(copy.body.data).toEqual({ a: 'from-b' })
    const ids = { [WA]: (await client.space(WA)).id, [WB]: (await client.space(WB)).id }
    for (const [space, other] of [
      [WA, WB],
      [WB, WA],
    ] as const) {
      const events = await hub.call('GET', `/clusters/${space}/api/v1/namespaces/common/events`)
      const merge = (events.body.items as KubeObject[]).filter((e) => e.reason === 'MergeConflict')
      expect(merge).toHaveLength(1)
      expect(merge[0]?.message).toContain(ids[other])
      expect(merge[0]?.message).toContain('data[a]')
    }
  })

  it('reports unsupported kinds with a condition and an Event, and projects the rest', async () => {
    await client.create(
      WB,
      { group: 'apiregistration.k8s.io', version: 'v1', resource: 'apiservices' },
      {
        apiVersion: 'apiregistration.k8s.io/v1',
        kind: 'APIService',
        metadata: { name: 'v1.example.io' },
        spec: {
          group: 'example.io',
          version: 'v1',
          groupPriorityMinimum: 100,
          versionPriority: 10,
        },
      }
    )
    const ep = (await client.get(WB, EDGE_PLACEMENTS, 'ep-b'))!
    await client.update(WB, EDGE_PLACEMENTS, {
      ...ep,
      spec: {
        ...(ep.spec as object),
        nonNamespacedObjects: [
          { apiGroup: 'apiregistration.k8s.io', resources: ['*'], resourceNames: ['*'] },
        ],
      },
    })
    await converge()
    const status = (await client.get(WB, EDGE_PLACEMENTS, 'ep-b'))?.status as any
    const cond = status.conditions.find((c: any) => c.type === 'Translated')
    expect(cond.status).toBe('False')
    expect(cond.reason).toBe('UnsupportedObjects')
    expect(cond.message).toContain('v1.example.io')
    const events = await hub.call('GET', `/clusters/${WB}/api/v1/namespaces/default/events`)
    expect((events.body.items as KubeObject[]).map((e) => e.reason)).toContain('UnsupportedObject')
    const okStatus = (await client.get(WA, EDGE_PLACEMENTS, 'ep-common'))?.status as any
    expect(okStatus.conditions.find((c: any) => c.type === 'Translated').status).toBe('True')
  })

  it('empties mailboxes when their placements go, keeping Namespaces', async () => {
    await client.delete(WA, EDGE_PLACEMENTS, 'ep-both')
    await client.delete(WB, EDGE_PLACEMENTS, 'ep-b')
    await converge()
    await converge()
    expect(await content('zloty')).toEqual(['namespaces//common', 'namespaces//special'])
    // cm1 leaves now; held has been leaving since its deletion (never confirmed until now).
    expect(await removing('zloty')).toEqual(['configmaps/common/cm1', 'configmaps/common/held'])
    expect((await syncerConfig('zloty')).spec.namespaceScope).toEqual({})
    await confirm('zloty')
    await converge()
    expect(await removing('zloty')).toEqual([])
  })
})

describe('resync pages', () => {
  it('lists every mailbox once, page by page, from the space registry', async () => {
    const translate = controllers.find((c) => c.name === 'translate')!
    const all = await Promise.all(
      ['florin', 'guilder', 'zloty'].map(async (t) => (await mailboxOf(t)).slice(`${ESPW}:`.length))
    )
    const seen: string[] = []
    let cursor: string | undefined
    for (let pages = 0; pages < 10; pages++) {
      const page = await translate.listKeys(cursor, 2)
      expect(page.keys.length).toBeLessThanOrEqual(2)
      seen.push(...page.keys)
      if (!page.next) break
      cursor = page.next
    }
    expect(seen).toEqual([...all].sort())
  })
})

describe('reading ahead', () => {
  it('confirms, without planning a write, a member whose inputs a run of the batch found settled', async () => {
    // Two destinations only one placement of their own selects, so they share all their copies.
    for (const name of ['peso', 'rupee']) {
      await client.create(IMW, SYNC_TARGETS, syncTarget(name))
      await client.create(IMW, LOCATIONS, location(name, 'settled'))
    }
    await client.create(WB, NS, namespace('settled', { app: 'settled' }))
    await client.create(WB, CM, configMap('settled', 'cm-s', { s: '1' }))
    await client.create(
      WB,
      EDGE_PLACEMENTS,
      placement('settled', {
        locationSelectors: [{ matchLabels: { env: 'settled' } }],
        namespaceSelector: { matchLabels: { app: 'settled' } },
      })
    )
    await converge()
    const p = hub.deps.projections
    const planned: string[] = []
    const confirmed: string[] = []
    const spy: ProjectionStore = {
      ...p,
      writeManifests: (requests) => {
        planned.push(...requests.map((r) => r.mailbox))
        return p.writeManifests(requests)
      },
      getManifestVersions: (mailboxes) => {
        confirmed.push(...mailboxes)
        return p.getManifestVersions(mailboxes)
      },
    }
    const translate = buildControllers({ ...hub.deps, projections: spy }, BASE).find(
      (c) => c.name === 'translate'
    )
    const names = [await mailboxOf('peso'), await mailboxOf('rupee')]
    const [peso, rupee] = names.map((m) => m.slice(`${ESPW}:`.length))
    const [pesoId, rupeeId] = await Promise.all(names.map(async (m) => (await client.space(m)).id))
    const before = await content('peso')
    expect(before).toContain('configmaps/settled/cm-s')
    expect(await content('rupee')).toEqual(before)
    const source = await client.get(WB, CM, 'cm-s', 'settled')
    await client.update(WB, CM, { ...source!, data: { s: '2' } })
    const session = translate!.session!([rupee!, peso!])
    expect((await session.reconcile(rupee!)).outcome).toContain('changed 1')
    // peso has rupee's inputs and holds all its copies through the same shared manifest: its
    // run confirms its manifest's version and plans no write.
    expect((await session.reconcile(peso!)).outcome).toMatch(/: unchanged$/)
    await session.settle?.()
    expect(planned).toEqual([rupeeId])
    expect(confirmed).toEqual([pesoId])
    // It serves the change all the same, through the shared manifest rupee's run wrote.
    const path = `/clusters/${names[0]}/api/v1/namespaces/settled/configmaps/cm-s`
    expect((await hub.call('GET', path)).body.data).toEqual({ s: '2' })
    expect(await content('peso')).toEqual(before)
  })

  it('runs again on fresh reads when a manifest read ahead moved before its write', async () => {
    await converge()
    const translate = controllers.find((c) => c.name === 'translate')
    const [florin, guilder] = [await mailboxOf('florin'), await mailboxOf('guilder')].map((m) =>
      m.slice(`${ESPW}:`.length)
    )
    const before = await content('florin')
    // A selected ConfigMap changes, so both mailboxes have something to write.
    const cm = before.find((c) => c.startsWith('configmaps/'))?.split('/') ?? []
    const source = await client.get(WA, CM, cm[2]!, cm[1])
    await client.update(WA, CM, { ...source!, data: { changed: 'yes' } })
    const session = translate!.session!([guilder!, florin!])
    // guilder's run reads florin's space and manifest ahead, with its own.
    expect((await session.reconcile(guilder!)).outcome).toContain('changed 1')
    // Another writer moves florin's manifest meanwhile: a copy nobody selects.
    const p = hub.deps.projections
    const mbId = (await client.space(await mailboxOf('florin'))).id
    const known = await p.getManifest(mbId)
    const bodies = await p.getBodies((known?.entries ?? []).map((e) => e.hash))
    const desired = (known?.entries ?? []).map(
      ({ group, version, resource, namespace, name, hash }) => ({
        ...{ group, version, resource, namespace, name, body: bodies.get(hash)! },
      })
    )
    const stray = configMap('common', 'stray', {})
    desired.push({ ...CM, resource: 'configmaps', namespace: 'common', name: 'stray', body: stray })
    const moved = await p.writeManifest(mbId, {
      desired,
      expectedVersion: known?.version ?? null,
      now: new Date(),
      known: known ?? null,
    })
    expect(moved.written).toBe(true)
    // florin's run planned on the manifest read ahead: its write meets a Conflict, and it runs
    // again on fresh reads instead of failing; the stray copy, never served, goes at once.
    const res = await session.reconcile(florin!)
    await session.settle?.()
    expect(res.outcome).toMatch(/changed [1-9]\d*, removed 1$/)
    expect(await content('florin')).toEqual(before)
    expect((await p.getManifest(mbId))?.version).toBeGreaterThan(moved.manifest.version)
  })
})
