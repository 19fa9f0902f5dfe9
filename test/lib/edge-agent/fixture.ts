/**
 * The edge agent's test bench: a real edge cluster API (the hub in plain Node, startNodeHub, over
 * its own dynalite table; client-node talks to it over http with skipTLSVerify, as it requires
 * for a plain-http server) with the agent's namespace `edgeplane-system`, a fake center
 * (fake-center.ts) — agentBench sets both up for a test file — and helpers to make agents with a
 * fresh (or given) state folder and an ownership record of their own in the edge (named after the
 * state folder unless given, so a test's agents do not share one record, and an agent made again
 * on a folder finds its record), to call the edge API directly as "someone else" (another field
 * manager: a controller, an operator), and to build ObjectRefs and bodies.
 */
import { createHash } from 'node:crypto'
import { KubeConfig } from '@kubernetes/client-node'
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import { type NodeHub, startNodeHub } from '../../../functions/node-server.ts'
import { builtinsFrom } from '../../../lib/apis/builtins.ts'
import type { ObjectRef } from '../../../lib/edge/protocol.ts'
import { type Agent, createAgent } from '../../../lib/edge-agent/agent.ts'
import { type CenterClient, createCenterClient } from '../../../lib/edge-agent/center-client.ts'
import type { EdgeKube } from '../../../lib/edge-agent/kube-client.ts'
import { createKubeRest } from '../../../lib/edge-agent/kube-rest.ts'
import type { AgentSelf } from '../../../lib/edge-agent/self-protection.ts'
import { bootstrapHub } from '../../../lib/hub/bootstrap.ts'
import { parseApiVersion } from '../../../lib/kube/resource-info.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { silentLogger } from '../../../lib/log.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { tempDir } from '../../helpers/temp-dir.ts'
import { CENTER_TOKEN, type FakeCenter, startFakeCenter } from './fake-center.ts'

export const EDGE_TOKEN = 'edge-cluster-admin'
/** The namespace of the agents' ownership records. */
export const AGENT_NS = 'edgeplane-system'

export type Edge = {
  hub: NodeHub
  kube: EdgeKube
  kubeConfig: KubeConfig
  /** A request to the edge API as someone other than the agent. */
  call(
    method: string,
    path: string,
    body?: unknown,
    opts?: { contentType?: string; manager?: string }
  ): Promise<{ status: number; body: any }>
  get(ref: ObjectRef): Promise<KubeObject | undefined>
  close(): Promise<void>
}

export async function startEdge(): Promise<Edge> {
  const store: TestStore = await createTestStore()
  const hub = await startNodeHub({ objects: store.objects, kv: store.kv })
  await bootstrapHub(hub.deps, { adminToken: EDGE_TOKEN, baseUrl: hub.url })
  const kubeConfig = new KubeConfig()
  kubeConfig.loadFromClusterAndUser(
    { name: 'edge', server: hub.url, skipTLSVerify: true },
    { name: 'agent', token: EDGE_TOKEN }
  )
  const kube = createKubeRest({ kubeConfig })
  await kube.create(nsRef(AGENT_NS), namespace(AGENT_NS))
  return {
    hub,
    kube,
    kubeConfig,
    async call(method, path, body, opts = {}) {
      const sep = path.includes('?') ? '&' : '?'
      const res = await fetch(`${hub.url}${path}${sep}fieldManager=${opts.manager ?? 'someone'}`, {
        method,
        headers: {
          authorization: `Bearer ${EDGE_TOKEN}`,
          'content-type': opts.contentType ?? 'application/json',
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
      const text = await res.text()
      return { status: res.status, body: text ? JSON.parse(text) : undefined }
    },
    get: (ref) => kube.get(ref),
    async close() {
      await hub.close()
      await store.close()
    },
  }
}

/**
 * What most agent test files share: one edge for the file, a fresh fake center per test, and
 * `agent()` making an agent of the two (newAgent).
 */
export type Bench = {
  edge: Edge
  center: FakeCenter
  agent(o?: AgentOptions): Promise<Agent & { stateDir: string }>
}

/** Registers the file's hooks for a Bench whose centers serve mailbox `mailbox`. */
export function agentBench(mailbox: string): Bench {
  const bench = { agent: (o) => newAgent(bench.center, bench.edge, o) } as Bench
  beforeAll(async () => {
    bench.edge = await startEdge()
  })
  afterAll(async () => {
    await bench.edge?.close()
  })
  beforeEach(async () => {
    bench.center = await startFakeCenter(mailbox)
  })
  afterEach(async () => {
    await bench.center?.close()
  })
  return bench
}

/** A fresh state folder, removed when the current test finishes (call in a test or beforeEach). */
export const tempStateDir = () => tempDir('edge-agent-')

export type AgentOptions = {
  stateDir?: string
  now?: () => Date
  token?: string
  /** The edge's built-in namespaces (default: kube's four). */
  builtinNamespaces?: string[]
  /** The ownership record's name (default: one per state folder, recordNameOf). */
  record?: string
  /** What the agent never writes (default: its record's namespace, self-protection.ts). */
  self?: AgentSelf
  /** The center client (default: one for the fake center with `token`). */
  center?: CenterClient
}

/** The ownership record of the agents made on state folder `dir` (unless told otherwise). */
export const recordNameOf = (dir: string) =>
  `owned-${createHash('sha256').update(dir).digest('hex').slice(0, 10)}`

export async function newAgent(
  center: FakeCenter,
  edge: Edge,
  o: AgentOptions = {}
): Promise<Agent & { stateDir: string }> {
  const stateDir = o.stateDir ?? (await tempStateDir())
  const agent = await createAgent({
    mailbox: center.mailbox,
    center:
      o.center ??
      createCenterClient({
        baseUrl: center.url,
        mailbox: center.mailbox,
        token: async () => o.token ?? CENTER_TOKEN,
      }),
    kube: edge.kube,
    stateDir,
    record: { namespace: AGENT_NS, name: o.record ?? recordNameOf(stateDir) },
    builtins: builtinsFrom(o.builtinNamespaces),
    log: silentLogger,
    ...(o.now ? { now: o.now } : {}),
    ...(o.self ? { self: o.self } : {}),
  })
  return Object.assign(agent, { stateDir })
}

// ---- refs and bodies ----

export const nsRef = (name: string): ObjectRef => ({
  group: '',
  version: 'v1',
  resource: 'namespaces',
  namespace: '',
  name,
})
export const cmRef = (namespace: string, name: string): ObjectRef => ({
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespace,
  name,
})
/** The ref of `resource` `namespace`/`name` at `apiVersion` (`apps/v1`, or `v1` for core). */
export const ref = (
  apiVersion: string,
  resource: string,
  namespace: string,
  name: string
): ObjectRef => ({ ...parseApiVersion(apiVersion), resource, namespace, name })

export const namespace = (name: string, labels?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, ...(labels ? { labels } : {}) },
})
export const configMap = (ns: string, name: string, data: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: ns, labels: { 'edge.kcp.io/projected': 'yes' } },
  data,
})
export const deployment = (ns: string, name: string, replicas: number, image = 'nginx') => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: ns },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'main', image }] },
    },
  },
})

/** Puts a Namespace and the given namespaced objects into the fake center's mailbox. */
export function putAll(center: FakeCenter, items: [ObjectRef, Record<string, unknown>][]) {
  for (const [r, body] of items) center.put(r, body)
}
