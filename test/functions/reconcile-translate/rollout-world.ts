/**
 * The world of the translate step's Rollout tests (rollout-hold.test.ts) on an in-process hub:
 * an inventory space with two edges in ring canary (c1, c2) and two in ring rest (r1, r2), a
 * workload space whose namespace `shop` an EdgePlacement sends everywhere, and Rollouts governing
 * it whose revisions (cut as the rollout step cuts them, from the governed objects) and status the
 * tests write themselves, so each destination's revision is set exactly; the mailbox, where and
 * translate steps run over all their keys, and each mailbox's copies are read back through the
 * hub API. Also a translate step whose reads of Rollouts or revision records fail.
 */
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
import { CONTROLLER_MANAGER, type Controller } from '../../../lib/reconcile/types.ts'
import { createRevisionStore, REVISIONS_NS } from '../../../lib/rollout/revision-store.ts'
import { ROLLOUT_REVISION_ANNOTATION } from '../../../lib/rollout/stamp.ts'
import type { KvStore } from '../../../lib/store/types.ts'
import { BASE, createTestHub, type TestHub } from '../../helpers/hub.ts'
import { convergeAll } from './converge.ts'

export const IMW = 'root:imw'
export const WS = 'root:wmw'
export const CM = { group: '', version: 'v1', resource: 'configmaps' }
export const NS = { group: '', version: 'v1', resource: 'namespaces' }
export const EDGES = { c1: 'canary', c2: 'canary', r1: 'rest', r2: 'rest' } as const
export type Edge = keyof typeof EDGES
export let hub: TestHub
export let client: HubClient
export let controllers: Controller[]
export let wsId: string

export const converge = () => convergeAll(controllers)

export async function mailboxOf(edge: Edge): Promise<string> {
  const st = await client.get(IMW, SYNC_TARGETS, edge)
  return `${ESPW}:${(await client.space(IMW)).id}-mb-${st?.metadata.uid}`
}
export const keyOf = async (edge: Edge) => (await mailboxOf(edge)).slice(`${ESPW}:`.length)

/** A mailbox's live ConfigMap copies of `shop`, as `name=<data.v>@<stamp or ->`. */
export async function copies(edge: Edge): Promise<string[]> {
  const res = await hub.call('GET', `/clusters/${await mailboxOf(edge)}/api/v1/configmaps`)
  if (res.status !== 200) throw new Error(`listing copies: ${res.status}`)
  return (res.body.items as KubeObject[])
    .filter((o) => o.metadata.namespace === 'shop' && !o.metadata.deletionTimestamp)
    .map((o) => {
      const stamp = o.metadata.annotations?.[ROLLOUT_REVISION_ANNOTATION] ?? '-'
      return `${o.metadata.name}=${(o.data as { v?: string } | undefined)?.v}@${stamp}`
    })
    .sort()
}

/** Every mailbox's copies, by edge. */
export const all = async () =>
  Object.fromEntries(
    await Promise.all(Object.keys(EDGES).map(async (e) => [e, await copies(e as Edge)] as const))
  )

/** The shared manifest a mailbox holds its live copies through. */
export const shareOf = async (edge: Edge) =>
  (await hub.deps.projections.getManifest((await client.space(await mailboxOf(edge))).id))?.shared
    ?.membership.id

/** What each edge's agent reports once it removed every tombstone of its mailbox. */
export async function confirmRemovals(): Promise<void> {
  const p = hub.deps.projections
  for (const edge of Object.keys(EDGES) as Edge[]) {
    const id = (await client.space(await mailboxOf(edge))).id
    const refs = ((await p.getManifest(id))?.entries ?? []).filter((e) => e.removing)
    if (refs.length > 0) await applyRemovals(p, id, refs, () => p.getManifest(id))
  }
}

export async function setConfigMap(name: string, v: string) {
  const cur = await client.get(WS, CM, name, 'shop')
  const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'shop' } }
  if (!cur) await client.create(WS, CM, { ...body, data: { v } })
  else await client.update(WS, CM, { ...cur, data: { v } })
}

export const rollout = async (name = 'shop') => (await client.get(WS, ROLLOUTS, name)) as KubeObject
export const refOf = async (name = 'shop') => ({
  spaceId: wsId,
  uid: (await rollout(name)).metadata.uid ?? '',
})

/** Cuts revision `n` from what the Rollout governs now, as the rollout step would. */
export async function cut(n: number, name = 'shop') {
  const deps = {
    client,
    builtins: builtinsFrom(),
    registry: (id: string) => registryForSpace(hub.deps, id),
  }
  const content = await readGoverned(deps, wsId, await rollout(name))
  const record = { number: n, cutAt: '2026-12-03T00:00:00Z', objects: content.entries }
  await createRevisionStore(hub.store.kv).cut(await refOf(name), record, content.bodies)
}

export const createRollout = (name: string) =>
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
export async function setStatus(completed: number, canary: number, rest: number, name = 'shop') {
  const status: RolloutStatus = {
    revision: Math.max(canary, rest),
    completedRevision: completed,
    phase: 'Progressing',
    waves: [wave('canary', canary, { from: completed }), wave('rest', rest)],
  }
  await client.updateStatus(WS, ROLLOUTS, { ...(await rollout(name)), status })
}

/** A translate step whose client or key-value store fail as `fail` says. */
export function failingTranslate(fail: { rollouts?: boolean; records?: boolean }): Controller {
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

/** Builds the world: spaces, edges, namespace `shop` with ConfigMaps a and old, the placement. */
export async function setUpWorld(): Promise<void> {
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
}
