/**
 * A world for the summarize step's tests, over the in-process hub (dynalite, the real hub and
 * steps): an inventory space with three edges (SyncTarget and Location each; e1 and e2
 * env=prod, e3 env=dev), a workload space, and helpers to run every step over all its keys as the
 * resync would, to report from an edge as its agent would (lib/edge/apply-report.ts, with the
 * copy's current generation unless told otherwise), and to set an edge's heartbeat time.
 */
import { buildControllers } from '../../../functions/controllers.ts'
import { summarizeController } from '../../../functions/reconcile-summarize/controller.ts'
import type { SummarizeDeps } from '../../../functions/reconcile-summarize/reconcile.ts'
import { builtinsFrom } from '../../../lib/apis/builtins.ts'
import {
  EDGE_PLACEMENTS,
  ESPW,
  LOCATIONS,
  SYNC_TARGETS,
  WORKSPACES,
} from '../../../lib/apis/gvr.ts'
import { applyReport, UPSYNC_MANAGER } from '../../../lib/edge/apply-report.ts'
import { renewLease } from '../../../lib/edge/lease.ts'
import type { Report, StatusReport } from '../../../lib/edge/protocol.ts'
import { createHubClient, type Gvr, type HubClient } from '../../../lib/hub/client.ts'
import { registryForSpace } from '../../../lib/hub/space-registry.ts'
import { timestamp } from '../../../lib/kube/time.ts'
import { CLUSTER_ANNOTATION, type KubeObject } from '../../../lib/kube/types.ts'
import { silentLogger } from '../../../lib/log.ts'
import { runKeys } from '../../../lib/reconcile/run.ts'
import { CONTROLLER_MANAGER, type Controller } from '../../../lib/reconcile/types.ts'
import { agentsPolled } from '../../helpers/agents-polled.ts'
import { BASE, createTestHub, type TestHub } from '../../helpers/hub.ts'

export const IMW = 'root:imw'
export const WS = 'root:wmw'
export const EDGES = { e1: 'prod', e2: 'prod', e3: 'dev' } as const
export type Edge = keyof typeof EDGES

export const CM: Gvr = { group: '', version: 'v1', resource: 'configmaps' }
export const NS: Gvr = { group: '', version: 'v1', resource: 'namespaces' }
export const DEPLOY: Gvr = { group: 'apps', version: 'v1', resource: 'deployments' }
export const JOBS: Gvr = { group: 'batch', version: 'v1', resource: 'jobs' }

export type World = Awaited<ReturnType<typeof createWorld>>

export const deployment = (ns: string, name: string, replicas: number, image = 'nginx:1') => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: ns },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'c', image }] },
    },
  },
})

export const job = (ns: string, name: string) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name, namespace: ns },
  spec: {
    template: {
      spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] },
    },
  },
})

export const configMap = (ns: string, name: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: ns },
  data: { a: '1' },
})

export const placement = (name: string, spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'EdgePlacement',
  metadata: { name },
  spec: spec as KubeObject['spec'],
})

/** What an edge reports of the ConfigMap `cfg` that placeOneConfigMap places (an empty status). */
export const CFG_REPORTED = {
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespace: 'app',
  name: 'cfg',
  status: {},
}

/**
 * One ConfigMap `cfg` in the namespace `app` (labelled team=app) and the EdgePlacement `name`
 * sending that namespace to the Locations `locationSelectors` pick, all placed.
 */
export async function placeOneConfigMap(
  w: World,
  name: string,
  locationSelectors: Record<string, unknown>[]
): Promise<void> {
  await w.client.create(WS, NS, {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'app', labels: { team: 'app' } },
  })
  await w.client.create(WS, CM, configMap('app', 'cfg'))
  await w.client.create(
    WS,
    EDGE_PLACEMENTS,
    placement(name, { locationSelectors, namespaceSelector: { matchLabels: { team: 'app' } } })
  )
  await w.placeAll()
}

export async function createWorld() {
  const hub: TestHub = await createTestHub()
  const client: HubClient = createHubClient(hub.deps, { fieldManager: 'test' })
  const controllers: Controller[] = buildControllers(hub.deps, BASE)
  const step = (name: string) => controllers.find((c) => c.name === name) as Controller
  for (const ws of ['imw', 'wmw'])
    await client.create('root', WORKSPACES, {
      apiVersion: 'tenancy.kcp.io/v1alpha1',
      kind: 'Workspace',
      metadata: { name: ws },
    })
  for (const [name, env] of Object.entries(EDGES)) {
    await client.create(IMW, SYNC_TARGETS, {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'SyncTarget',
      metadata: { name, labels: { id: name } },
    })
    await client.create(IMW, LOCATIONS, {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'Location',
      metadata: { name, labels: { env, loc: name } },
      spec: {
        resource: { group: 'edge.kcp.io', version: 'v1alpha1', resource: 'synctargets' },
        instanceSelector: { matchLabels: { id: name } },
      },
    })
  }

  async function runAll(c: Controller): Promise<string[]> {
    const page = await c.listKeys(undefined, 10_000)
    const res = await runKeys(c, page.keys, silentLogger)
    for (const r of res) if (!r.ok) throw new Error(`${c.name} ${r.key}: ${r.outcome}`)
    return res.map((r) => `${r.key} ${r.outcome}`)
  }

  /**
   * mailbox, where, translate over all keys, twice (the second settles what the first made), each
   * pass followed by every edge's poll (helpers/agents-polled.ts).
   */
  async function placeAll(): Promise<void> {
    for (let pass = 0; pass < 2; pass++) {
      for (const name of ['mailbox', 'where', 'translate']) await runAll(step(name))
      await agentsPolled(client, hub.deps.projections)
    }
  }

  async function mailbox(edge: Edge) {
    const st = await client.get(IMW, SYNC_TARGETS, edge)
    const imw = await client.space(IMW)
    const name = `${imw.id}-mb-${st?.metadata.uid}`
    return { name, space: await client.space(`${ESPW}:${name}`) }
  }

  async function generationOf(
    edge: Edge,
    ref: Omit<StatusReport, 'observedGeneration' | 'status'>
  ) {
    const mb = await mailbox(edge)
    const manifest = await hub.deps.projections.getManifest(mb.space.id)
    const entry = manifest?.entries.find(
      (e) =>
        e.group === ref.group &&
        e.resource === ref.resource &&
        e.namespace === ref.namespace &&
        e.name === ref.name
    )
    if (!entry) throw new Error(`${edge} has no copy of ${ref.resource} ${ref.name}`)
    return entry.generation
  }

  type StatusItem = Omit<StatusReport, 'observedGeneration'> & { observedGeneration?: number }

  /** Posts a report from `edge` (statuses default to the copy's current generation). */
  async function report(
    edge: Edge,
    r: Partial<Omit<Report, 'statuses'>> & { statuses?: StatusItem[] }
  ) {
    const statuses: StatusReport[] = []
    for (const s of r.statuses ?? [])
      statuses.push({
        ...s,
        observedGeneration: s.observedGeneration ?? (await generationOf(edge, s)),
      })
    const env = {
      deps: hub.deps,
      client: createHubClient(hub.deps, { fieldManager: UPSYNC_MANAGER, baseUrl: BASE }),
      heartbeats: new Map(),
    }
    const full: Report = {
      kind: 'Report',
      statuses,
      problems: r.problems ?? [],
      upsync: r.upsync ?? { apply: [], delete: [] },
      heartbeat: r.heartbeat ?? false,
      ...(r.removed ? { removed: r.removed } : {}),
      ...(r.agent ? { agent: r.agent } : {}),
    }
    const res = await applyReport(env, await mailbox(edge), full)
    if (res.rejected.length > 0) throw new Error(JSON.stringify(res.rejected))
  }

  /**
   * Sets an edge's last heartbeat `agoMs` before now, as the center's heartbeat leaves it: the
   * SyncTarget's status time and its lease.
   */
  async function heartbeat(edge: Edge, agoMs = 0) {
    const st = (await client.get(IMW, SYNC_TARGETS, edge)) as KubeObject
    const ms = Date.now() - agoMs
    await client.updateStatus(IMW, SYNC_TARGETS, {
      ...st,
      status: { ...(st.status as object), lastSyncerHeartbeatTime: timestamp(new Date(ms)) },
    })
    const space = st.metadata.annotations?.[CLUSTER_ANNOTATION] ?? ''
    await renewLease(hub.deps.kv, space, st.metadata.uid ?? '', ms)
  }

  /** A summarize step of the hub's with `opts` (pages/: mailboxes per page, pages per run...). */
  const summarizeWith = (opts: Partial<SummarizeDeps>) =>
    summarizeController({
      client: createHubClient(hub.deps, { fieldManager: CONTROLLER_MANAGER, baseUrl: BASE }),
      projections: hub.deps.projections,
      builtins: hub.deps.builtins ?? builtinsFrom(),
      now: hub.deps.now,
      log: silentLogger,
      kv: hub.deps.kv,
      registry: (spaceId) => registryForSpace(hub.deps, spaceId),
      slices: hub.deps.caches.slices,
      liveness: hub.deps.liveness,
      ...opts,
    })

  return {
    hub,
    client,
    step,
    summarizeWith,
    runAll,
    placeAll,
    mailbox,
    report,
    heartbeat,
    summarize: () => runAll(step('summarize')),
    placementStatus: async (name: string) =>
      ((await client.get(WS, EDGE_PLACEMENTS, name))?.status as any)?.summary,
    close: () => hub.close(),
  }
}
