/**
 * Translation under a Rollout (held-selections.ts, rollout-holds.ts) through the in-process hub:
 * an inventory space with two edges in ring canary (c1, c2) and two in ring rest (r1, r2), a
 * workload space whose namespace `shop` an EdgePlacement sends everywhere, and a Rollout `shop`
 * governing it. The test writes the Rollout's revisions (as the rollout step cuts them, from
 * the governed objects) and its status itself, so each destination's revision is set exactly;
 * then the mailbox, where and translate steps run over all their keys and each mailbox's copies
 * are read back through the hub API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildControllers } from '../../../functions/controllers.ts'
import { readGoverned } from '../../../functions/reconcile-rollout/governed.ts'
import { translateController } from '../../../functions/reconcile-translate/controller.ts'
import { builtinsFrom } from '../../../lib/apis/builtins.ts'
import type { RolloutStatus } from '../../../lib/apis/edge-rollout.ts'
import {
  EDGE_PLACEMENTS,
  ESPW,
  LOCATIONS,
  ROLLOUTS,
  SYNC_TARGETS,
  WORKSPACES,
} from '../../../lib/apis/gvr.ts'
import { applyRemovals } from '../../../lib/edge/report-removals.ts'
import { createHubClient, type HubClient } from '../../../lib/hub/client.ts'
import { registryForSpace } from '../../../lib/hub/space-registry.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { silentLogger } from '../../../lib/log.ts'
import { runKeys } from '../../../lib/reconcile/run.ts'
import { CONTROLLER_MANAGER, type Controller } from '../../../lib/reconcile/types.ts'
import { createRevisionStore, REVISIONS_NS } from '../../../lib/rollout/revision-store.ts'
import { ROLLOUT_REVISION_ANNOTATION } from '../../../lib/rollout/stamp.ts'
import type { ProjectionStore } from '../../../lib/store/projection-types.ts'
import type { KvStore } from '../../../lib/store/types.ts'
import { BASE, createTestHub, type TestHub } from '../../helpers/hub.ts'
import { convergeAll } from './converge.ts'

const IMW = 'root:imw'
const WS = 'root:wmw'
const CM = { group: '', version: 'v1', resource: 'configmaps' }
const NS = { group: '', version: 'v1', resource: 'namespaces' }
const EDGES = { c1: 'canary', c2: 'canary', r1: 'rest', r2: 'rest' } as const
type Edge = keyof typeof EDGES
let hub: TestHub
let client: HubClient
let controllers: Controller[]
let wsId: string

const converge = () => convergeAll(controllers)

async function mailboxOf(edge: Edge): Promise<string> {
  const st = await client.get(IMW, SYNC_TARGETS, edge)
  return `${ESPW}:${(await client.space(IMW)).id}-mb-${st?.metadata.uid}`
}
const keyOf = async (edge: Edge) => (await mailboxOf(edge)).slice(`${ESPW}:`.length)

/** A mailbox's live ConfigMap copies of `shop`, as `name=<data.v>@<stamp or ->`. */
async function copies(edge: Edge): Promise<string[]> {
  const res = await hub.call('GET', `/clusters/${await mailboxOf(edge)}/api/v1/configmaps`)
  expect(res.status).toBe(200)
  return (res.body.items as KubeObject[])
    .filter((o) => o.metadata.namespace === 'shop' && !o.metadata.deletionTimestamp)
    .map((o) => {
      const stamp = o.metadata.annotations?.[ROLLOUT_REVISION_ANNOTATION] ?? '-'
      return `${o.metadata.name}=${(o.data as { v?: string } | undefined)?.v}@${stamp}`
    })
    .sort()
}

/** Every mailbox's copies, by edge. */
const all = async () =>
  Object.fromEntries(
    await Promise.all(Object.keys(EDGES).map(async (e) => [e, await copies(e as Edge)] as const))
  )

/** The shared manifest a mailbox holds its live copies through. */
const shareOf = async (edge: Edge) =>
  (await hub.deps.projections.getManifest((await client.space(await mailboxOf(edge))).id))?.shared
    ?.membership.id

/** What each edge's agent reports once it removed every tombstone of its mailbox. */
async function confirmRemovals(): Promise<void> {
  const p = hub.deps.projections
  for (const edge of Object.keys(EDGES) as Edge[]) {
    const id = (await client.space(await mailboxOf(edge))).id
    const refs = ((await p.getManifest(id))?.entries ?? []).filter((e) => e.removing)
    if (refs.length > 0) await applyRemovals(p, id, refs, () => p.getManifest(id))
  }
}

async function setConfigMap(name: string, v: string) {
  const cur = await client.get(WS, CM, name, 'shop')
  const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'shop' } }
  if (!cur) await client.create(WS, CM, { ...body, data: { v } })
  else await client.update(WS, CM, { ...cur, data: { v } })
}

const rollout = async (name = 'shop') => (await client.get(WS, ROLLOUTS, name)) as KubeObject
const refOf = async (name = 'shop') => ({
  spaceId: wsId,
  uid: (await rollout(name)).metadata.uid ?? '',
})

/** Cuts revision `n` from what the Rollout governs now, as the rollout step would. */
async function cut(n: number, name = 'shop') {
  const deps = {
    client,
    builtins: builtinsFrom(),
    registry: (id: string) => registryForSpace(hub.deps, id),
  }
  const content = await readGoverned(deps, wsId, await rollout(name))
  const record = { number: n, cutAt: '2026-12-03T00:00:00Z', objects: content.entries }
  await createRevisionStore(hub.store.kv).cut(await refOf(name), record, content.bodies)
}

const createRollout = (name: string) =>
  client.create(WS, ROLLOUTS, {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'Rollout',
    metadata: { name },
    spec: {
      namespaceSelector: { matchLabels: { app: 'shop' } },
      waves: [
        { name: 'canary', locationSelectors: [{ matchLabels: { ring: 'canary' } }] },
        { name: 'rest' },
      ],
    } as KubeObject['spec'],
  })

const wave = (name: string, revision: number, extra = {}) => ({
  ...{ name, revision, cut: 1, edges: 2, ready: 0, failed: 0, stale: 0, pending: 2 },
  ...extra,
})
/** The Rollout's status: `canary` and `rest` at their revisions, `completed` completed. */
async function setStatus(completed: number, canary: number, rest: number, name = 'shop') {
  const status: RolloutStatus = {
    revision: Math.max(canary, rest),
    completedRevision: completed,
    phase: 'Progressing',
    waves: [wave('canary', canary, { from: completed }), wave('rest', rest)],
  }
  await client.updateStatus(WS, ROLLOUTS, { ...(await rollout(name)), status })
}

/** A translate step whose client or key-value store fail as `fail` says. */
function failingTranslate(fail: { rollouts?: boolean; records?: boolean }): Controller {
  const base = createHubClient(hub.deps, { fieldManager: CONTROLLER_MANAGER })
  const boom = () => Promise.reject(new Error('injected read failure'))
  const c = new Proxy(base, {
    get: (t, p) =>
      p === 'list' && fail.rollouts
        ? (space: string, gvr: { resource: string }, f?: never) =>
            gvr.resource === 'rollouts' ? boom() : t.list(space, gvr as never, f)
        : Reflect.get(t, p),
  })
  const kv = new Proxy(hub.deps.kv, {
    get: (t, p) => {
      if (p === 'list' && fail.records)
        return (ns: string, ...rest: never[]) =>
          ns === REVISIONS_NS ? boom() : t.list(ns, ...rest)
      const v = Reflect.get(t, p)
      return typeof v === 'function' ? v.bind(t) : v
    },
  }) as KvStore
  return translateController({
    client: c,
    projections: hub.deps.projections,
    builtins: builtinsFrom(),
    now: hub.deps.now,
    log: silentLogger,
    kv,
    registry: (id) => registryForSpace(hub.deps, id),
  })
}

beforeAll(async () => {
  hub = await createTestHub()
  client = createHubClient(hub.deps, { fieldManager: 'test' })
  const steps = new Set(['mailbox', 'where', 'translate'])
  controllers = buildControllers(hub.deps, BASE).filter((c) => steps.has(c.name))
  for (const name of ['imw', 'wmw'])
    await client.create('root', WORKSPACES, {
      apiVersion: 'tenancy.kcp.io/v1alpha1',
      kind: 'Workspace',
      metadata: { name },
    })
  wsId = (await client.space(WS)).id
  for (const [name, ring] of Object.entries(EDGES)) {
    await client.create(IMW, SYNC_TARGETS, {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'SyncTarget',
      metadata: { name, labels: { id: name } },
    })
    await client.create(IMW, LOCATIONS, {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'Location',
      metadata: { name, labels: { ring } },
      spec: {
        resource: { group: 'edge.kcp.io', version: 'v1alpha1', resource: 'synctargets' },
        instanceSelector: { matchLabels: { id: name } },
      },
    })
  }
  await client.create(WS, NS, {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'shop', labels: { app: 'shop' } },
  })
  await setConfigMap('a', '1')
  await setConfigMap('old', '1')
  await client.create(WS, EDGE_PLACEMENTS, {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'EdgePlacement',
    metadata: { name: 'all' },
    spec: { locationSelectors: [{}], namespaceSelector: { matchLabels: { app: 'shop' } } },
  })
}, 60_000)

afterAll(async () => {
  await hub?.close()
})

const everywhere = (list: string[]) => ({ c1: list, c2: list, r1: list, r2: list })

describe('translation under a Rollout', () => {
  it('sends the live objects, unstamped, without a Rollout and before one is adopted', async () => {
    await converge()
    expect(await all()).toEqual(everywhere(['a=1@-', 'old=1@-']))
    const mb = await mailboxOf('c1')
    const before = (await hub.call('GET', `/clusters/${mb}/api/v1/namespaces/shop/configmaps/a`))
      .body as KubeObject
    await createRollout('shop')
    // A Rollout with no completed revision holds nothing: exactly the content of before.
    const outcomes = await converge()
    const translated = outcomes.filter((o) => o.startsWith('translate'))
    expect(translated.length).toBeGreaterThan(0)
    expect(translated.every((o) => o.endsWith('unchanged'))).toBe(true)
    const after = (await hub.call('GET', `/clusters/${mb}/api/v1/namespaces/shop/configmaps/a`))
      .body as KubeObject
    expect(after).toEqual(before)
    await setConfigMap('a', '2')
    await converge()
    expect(await all()).toEqual(everywhere(['a=2@-', 'old=1@-']))
  })

  it('stamps every copy from the adopted revision', async () => {
    await cut(1)
    await setStatus(1, 1, 1)
    await converge()
    expect(await all()).toEqual(everywhere(['a=2@shop/1', 'old=1@shop/1']))
  })

  it('gives a promoted wave its revision and keeps the later wave at the one it holds', async () => {
    await setConfigMap('a', '3')
    await setConfigMap('fresh', '3')
    await client.delete(WS, CM, 'old', { namespace: 'shop' })
    await cut(2)
    await setStatus(1, 2, 1)
    await converge()
    const promoted = ['a=3@shop/2', 'fresh=3@shop/2']
    // rest: revision 1's body of a (live is 3), fresh held back, old still sent though deleted.
    const held = ['a=2@shop/1', 'old=1@shop/1']
    expect(await all()).toEqual({ c1: promoted, c2: promoted, r1: held, r2: held })
  })

  it('shares copies within a wave, never across revisions', async () => {
    await confirmRemovals()
    await converge()
    const [c1, c2, r1, r2] = await Promise.all((['c1', 'c2', 'r1', 'r2'] as const).map(shareOf))
    expect(c1).toBeDefined()
    expect(r1).toBeDefined()
    expect(c2).toBe(c1)
    expect(r2).toBe(r1)
    expect(r1).not.toBe(c1)
  })

  it('promotes a whole wave with one shared write, not one per mailbox', async () => {
    await setStatus(2, 2, 2)
    await converge()
    await confirmRemovals()
    await converge()
    await setConfigMap('a', '4')
    await cut(3)
    await setStatus(2, 3, 2)
    await converge()
    const rest = ['a=3@shop/2', 'fresh=3@shop/2']
    expect((await all()).r1).toEqual(rest)
    // The same copies' keys at two revisions: two shared manifests, never one.
    expect((await all()).c1).toEqual(['a=4@shop/3', 'fresh=3@shop/3'])
    expect(await shareOf('c1')).not.toBe(await shareOf('r1'))
    expect(await shareOf('r2')).toBe(await shareOf('r1'))
    // Promote rest: its mailboxes' copies change content only, in the shared manifest they hold.
    await setStatus(2, 3, 3)
    const p = hub.deps.projections
    const planned: string[] = []
    const spy: ProjectionStore = {
      ...p,
      writeManifests: (requests) => {
        planned.push(...requests.map((r) => r.mailbox))
        return p.writeManifests(requests)
      },
    }
    const translate = buildControllers({ ...hub.deps, projections: spy }, BASE).find(
      (c) => c.name === 'translate'
    )
    const keys = [await keyOf('r1'), await keyOf('r2')]
    const session = translate?.session?.(keys)
    if (!session) throw new Error('translate has sessions')
    for (const k of keys) await session.reconcile(k)
    await session.settle?.()
    expect(planned).toHaveLength(1)
    const now = ['a=4@shop/3', 'fresh=3@shop/3']
    expect(await all()).toEqual(everywhere(now))
  })

  it('fails the key and keeps the copies when the Rollouts or a record cannot be read', async () => {
    // Roll rest back to revision 2: a content move a failed read must not make, nor a removal.
    await setStatus(2, 3, 2)
    const before = await all()
    for (const fail of [{ rollouts: true }, { records: true }]) {
      const res = await runKeys(failingTranslate(fail), [await keyOf('r1')], silentLogger)
      expect(res.map((r) => r.ok)).toEqual([false])
      expect(res[0]?.outcome).toContain('injected read failure')
      expect(await all()).toEqual(before)
    }
    // A record the status names that is gone: the same.
    await createRevisionStore(hub.store.kv).prune(await refOf(), new Set([3]))
    const translate = controllers.find((c) => c.name === 'translate')
    if (!translate) throw new Error('translate')
    const missing = await runKeys(translate, [await keyOf('r1')], silentLogger)
    expect(missing[0]?.ok).toBe(false)
    expect(missing[0]?.outcome).toContain('revision 2 is not stored')
    expect(await all()).toEqual(before)
  })

  it('sends the live objects, unstamped, once the Rollout is gone', async () => {
    await client.delete(WS, ROLLOUTS, 'shop')
    await converge()
    expect(await all()).toEqual(everywhere(['a=4@-', 'fresh=3@-']))
  })
  it('stamps a customized copy too: the stamp goes on before customization', async () => {
    await client.create(WS, CM, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'tpl',
        namespace: 'shop',
        annotations: { 'edge.kcp.io/expand-parameters': 'true' },
      },
      data: { v: 'ring-%(ring)' },
    })
    await createRollout('again')
    await cut(1, 'again')
    await setStatus(1, 1, 1, 'again')
    await converge()
    const want = (ring: string) => ['a=4@again/1', 'fresh=3@again/1', `tpl=ring-${ring}@again/1`]
    expect(await all()).toEqual({
      c1: want('canary'),
      c2: want('canary'),
      r1: want('rest'),
      r2: want('rest'),
    })
  })
})
