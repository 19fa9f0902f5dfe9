/**
 * The agent between real parts, for end-to-end tests in one process: the real center (the hub app
 * with the edge API over its own dynalite table, called through `app.request()`, with a request
 * counter), an inventory space with SyncTarget `florin` and its mailbox made by the mailbox hook,
 * the mailbox's edge credential; a simulated edge cluster (the hub in plain Node with kube's
 * API-server defaults, the edge bootstrap and the workload simulator, driven by hand: `simulate()`
 * ticks until a pass writes nothing; Job pods end at once); and an agent between them with a fixed
 * clock. The mailbox content is written as the translator would, one manifest per write.
 */
import { KubeConfig } from '@kubernetes/client-node'
import { createNodeApp, type NodeHub, startNodeHub } from '../../../functions/node-server.ts'
import { builtinsFrom } from '../../../lib/apis/builtins.ts'
import { type Agent, createAgent } from '../../../lib/edge-agent/agent.ts'
import { createCenterClient } from '../../../lib/edge-agent/center-client.ts'
import { createKubeRest } from '../../../lib/edge-agent/kube-rest.ts'
import { bootstrapEdge, edgeNode } from '../../../lib/edge-sim/bootstrap.ts'
import { createSimulator } from '../../../lib/edge-sim/simulator.ts'
import { bootstrapHub } from '../../../lib/hub/bootstrap.ts'
import { parseApiVersion } from '../../../lib/kube/resource-info.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { silentLogger } from '../../../lib/log.ts'
import { bumpEpoch } from '../../../lib/store/epochs.ts'
import type { DesiredEntry } from '../../../lib/store/projection-types.ts'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import {
  createInventory,
  createSyncTarget,
  edgeToken,
} from '../../functions/edge-api/edge-setup.ts'
import { createTestStore } from '../../helpers/dynalite.ts'
import { ADMIN_TOKEN, BASE } from '../../helpers/hub.ts'
import { makeTempDir, removeTempDir } from '../../helpers/temp-dir.ts'

const EDGE_ADMIN = 'sim-edge-admin'

export type CenterEdge = Awaited<ReturnType<typeof startCenterAndEdge>>

export async function startCenterAndEdge() {
  // The center.
  const counter = createRequestCounter()
  const centerStore = await createTestStore({ counter })
  const reads = { manifests: 0 }
  const projections = centerStore.projections
  const center = createNodeApp({
    objects: centerStore.objects,
    kv: centerStore.kv,
    projections: {
      ...projections,
      getManifest: (m) => {
        reads.manifests++
        return projections.getManifest(m)
      },
    },
    log: silentLogger,
  })
  await bootstrapHub(center.deps, { adminToken: ADMIN_TOKEN, baseUrl: BASE })
  async function call(method: string, path: string, body?: unknown) {
    const headers: Record<string, string> = { authorization: `Bearer ${ADMIN_TOKEN}` }
    if (body !== undefined) headers['content-type'] = 'application/json'
    const res = await center.app.request(`${BASE}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await res.text()
    return { status: res.status, body: text ? JSON.parse(text) : undefined }
  }
  await createInventory(call, 'imw')
  const { mailbox, spaceId } = await createSyncTarget(call, 'imw', 'florin')
  const token = await edgeToken({ store: centerStore }, mailbox)
  let version: number | null = null

  // The simulated edge.
  const edgeStore = await createTestStore()
  const edge: NodeHub = await startNodeHub({
    objects: edgeStore.objects,
    kv: edgeStore.kv,
    defaults: true,
    log: silentLogger,
  })
  const node = edgeNode('florin')
  await bootstrapEdge(edge.deps, { node, adminToken: EDGE_ADMIN })
  const sim = createSimulator({ deps: edge.deps, node, jobDurationMs: 0, log: silentLogger })
  const kubeConfig = new KubeConfig()
  kubeConfig.loadFromClusterAndUser(
    { name: 'florin', server: edge.url, skipTLSVerify: true },
    { name: 'agent', token: EDGE_ADMIN }
  )
  const kube = createKubeRest({ kubeConfig })

  // The agent, its state folder removed by close().
  const stateDir = await makeTempDir('edge-agent-')
  const clock = { ms: Date.parse('2030-01-01T00:00:00Z') }
  const agent: Agent = await createAgent({
    mailbox,
    center: createCenterClient({
      baseUrl: BASE,
      mailbox,
      token: async () => token,
      fetch: (input, init) => Promise.resolve(center.app.request(input, init)),
    }),
    kube,
    stateDir,
    record: { namespace: 'kube-system', name: 'edgeplane-agent-owned' },
    builtins: builtinsFrom(),
    log: silentLogger,
    now: () => new Date(clock.ms),
  })

  /** Edge API requests as someone other than the agent. */
  async function edgeCall(method: string, path: string, body?: unknown) {
    const res = await fetch(`${edge.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${EDGE_ADMIN}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await res.text()
    return { status: res.status, body: text ? JSON.parse(text) : undefined }
  }

  async function simulate(max = 10): Promise<void> {
    for (let i = 0; i < max; i++) {
      await edge.settle()
      if ((await sim.tick()).writes === 0) return
    }
    throw new Error(`the simulator still writes after ${max} passes`)
  }

  return {
    agent,
    kube,
    clock,
    counter,
    mailbox,
    spaceId,
    /** The center's projection store (manifests, copy states). */
    projections: center.deps.projections,
    call,
    edgeCall,
    simulate,
    /** Manifest reads of the center so far. */
    reads,
    /** Writes the mailbox content, as the translator does (the `manifests` epoch moves after it). */
    async setMailbox(entries: DesiredEntry[]) {
      const w = await center.deps.projections.writeManifest(spaceId, {
        desired: entries,
        expectedVersion: version,
        now: new Date(),
      })
      await bumpEpoch(center.deps.kv, 'manifests')
      version = w.manifest.version
    },
    /** GET of a path in the mailbox space, e.g. `apps/v1/namespaces/shop/deployments/web`. */
    async mailboxGet(rest: string): Promise<{ status: number; body: KubeObject }> {
      const api = rest.startsWith('v1/') ? 'api' : 'apis'
      return call('GET', `/clusters/${spaceId}/${api}/${rest}`)
    },
    async close() {
      await sim.stop()
      await center.settle()
      await edge.close()
      await edgeStore.close()
      await centerStore.close()
      await removeTempDir(stateDir)
    },
  }
}

/** The desired entry of `body` as `resource` in `namespace` at `apiVersion` (`v1` for core). */
export const entry = (
  apiVersion: string,
  resource: string,
  namespace: string,
  body: Record<string, unknown>
): DesiredEntry => {
  const name = String((body.metadata as { name: string }).name)
  const { group, version } = parseApiVersion(apiVersion)
  return { group, version, resource, namespace, name, body: body as KubeObject }
}
