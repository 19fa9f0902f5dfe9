/**
 * A world for the rollout step's tests on a test hub (dynalite): an inventory space with four
 * edges (c1 in ring canary, r1..r3 in ring rest), a workload space with the namespace `shop`
 * (app=shop) and an EdgePlacement sending it everywhere (its slice made by the where step), a
 * clock the test moves, and a tally the test sets per edge (the revision it runs and its state).
 */
import { reconcileRollout } from '../../../functions/reconcile-rollout/reconcile.ts'
import {
  countWave,
  type EdgeStanding,
  type Tally,
} from '../../../functions/reconcile-rollout/tally.ts'
import { reconcileWhere } from '../../../functions/reconcile-where/reconcile.ts'
import { builtinsFrom } from '../../../lib/apis/builtins.ts'
import {
  EDGE_PLACEMENTS,
  LOCATIONS,
  ROLLOUTS,
  SYNC_TARGETS,
  WORKSPACES,
} from '../../../lib/apis/gvr.ts'
import { createHubClient, type Gvr, type HubClient } from '../../../lib/hub/client.ts'
import { registryForSpace } from '../../../lib/hub/space-registry.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { silentLogger } from '../../../lib/log.ts'
import { createRevisionStore } from '../../../lib/rollout/revision-store.ts'
import { createTestHub } from '../../helpers/hub.ts'

export const IMW = 'root:imw'
export const WS = 'root:wmw'
export const CM: Gvr = { group: '', version: 'v1', resource: 'configmaps' }
const NS: Gvr = { group: '', version: 'v1', resource: 'namespaces' }
const EVENTS: Gvr = { group: '', version: 'v1', resource: 'events' }
export const EDGES = { c1: 'canary', r1: 'rest', r2: 'rest', r3: 'rest' } as const
export type Edge = keyof typeof EDGES

export const configMap = (name: string, a = '1'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'shop' },
  data: { a },
})

export const rolloutSpec = (extra: Record<string, unknown> = {}) => ({
  namespaceSelector: { matchLabels: { app: 'shop' } },
  waves: [
    { name: 'canary', locationSelectors: [{ matchLabels: { ring: 'canary' } }] },
    { name: 'rest' },
  ],
  gate: { soakSeconds: 10, deadlineSeconds: 100 },
  ...extra,
})

export type World = Awaited<ReturnType<typeof createWorld>>

export async function createWorld() {
  const hub = await createTestHub()
  const client: HubClient = createHubClient(hub.deps, { fieldManager: 'test' })
  for (const name of ['imw', 'wmw'])
    await client.create('root', WORKSPACES, {
      apiVersion: 'tenancy.kcp.io/v1alpha1',
      kind: 'Workspace',
      metadata: { name },
    })
  const wsId = (await client.space(WS)).id
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
  await client.create(WS, EDGE_PLACEMENTS, {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'EdgePlacement',
    metadata: { name: 'all' },
    spec: { locationSelectors: [{}], namespaceSelector: { matchLabels: { app: 'shop' } } },
  })
  await reconcileWhere({ client, log: silentLogger }, `${wsId}/all`)

  let nowMs = Date.parse('2026-12-03T10:00:00Z')
  /** Per edge: the revision it runs and how it stands there (default: revision 1, ready). */
  const edges = new Map<string, { runs: number; standing: EdgeStanding }>()
  const tally: Tally = async (input) =>
    input.waves.map(
      (w) => (revision: number, cut: number) =>
        countWave(w.edges, revision, cut, (e, at) => {
          const me = edges.get(e.syncTargetName) ?? { runs: 1, standing: { state: 'ready' } }
          return me.runs === at || me.standing.state === 'stale'
            ? me.standing
            : { state: 'pending' }
        })
    )
  const deps = {
    client,
    builtins: builtinsFrom(),
    kv: hub.store.kv,
    log: silentLogger,
    now: () => new Date(nowMs),
    registry: (spaceId: string) => registryForSpace(hub.deps, spaceId),
    tally,
  }
  const get = async (name = 'shop') => (await client.get(WS, ROLLOUTS, name)) as KubeObject
  const store = createRevisionStore(hub.store.kv)
  return {
    hub,
    client,
    wsId,
    deps,
    store,
    run: (name = 'shop', over: Partial<typeof deps> = {}) =>
      reconcileRollout({ ...deps, ...over }, `${wsId}/${name}`),
    advance: (ms: number) => {
      nowMs += ms
    },
    /** The edges of `names` run `revision`, standing as `standing` says. */
    edgesAt(names: readonly Edge[], runs: number, standing: EdgeStanding = { state: 'ready' }) {
      for (const n of names) edges.set(n, { runs, standing })
    },
    get,
    status: async (name = 'shop') => (await get(name)).status as any,
    revisions: async (name = 'shop') =>
      (await store.revisions({ spaceId: wsId, uid: (await get(name)).metadata.uid ?? '' })).map(
        (r) => r.number
      ),
    createRollout: (name: string, spec: Record<string, unknown>) =>
      client.create(WS, ROLLOUTS, {
        apiVersion: 'edge.kcp.io/v1alpha1',
        kind: 'Rollout',
        metadata: { name },
        spec: spec as KubeObject['spec'],
      }),
    patchSpec: async (name: string, spec: Record<string, unknown>) => {
      const r = await get(name)
      const merged = { ...(r.spec as Record<string, unknown>), ...spec }
      return client.update(WS, ROLLOUTS, { ...r, spec: merged as KubeObject['spec'] })
    },
    setConfigMap: async (name: string, a: string) => {
      const cur = await client.get(WS, CM, name, 'shop')
      if (!cur) return client.create(WS, CM, configMap(name, a))
      return client.update(WS, CM, { ...cur, data: { a } })
    },
    /** The Events about Rollouts in the workload space. */
    events: async () =>
      (await client.list(WS, EVENTS)).filter(
        (e) => (e.involvedObject as { kind?: string } | undefined)?.kind === 'Rollout'
      ) as (KubeObject & { reason: string; type: string; message: string })[],
    close: () => hub.close(),
  }
}
