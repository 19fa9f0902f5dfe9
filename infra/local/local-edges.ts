/**
 * The simulated edge clusters of `npm start`, each with its own agent, all started in parallel:
 *   1. the edges are registered in the center (edge-inventory.ts: `root:imw-1`, a SyncTarget and
 *      a Location per edge, the mailbox step asked at once);
 *   2. per edge, a simulated cluster (infra/edge-sim/main.ts) as a supervised child on a port
 *      picked once per start (so a restarted edge comes back at the same URL), its table `edge-<name>`
 *      on the stack's dynalite, its admin token in `<data>/edges/<name>/admin-token`, served over
 *      https with the hub's certificate, the store key in its environment; a kubeconfig for it in `<data>/edges/<name>/kubeconfig`;
 *   3. the edge joined through the bootstrap a real edge uses (edge-join.ts);
 *   4. its agent (infra/edge-agent/main.ts) as a supervised child, configured from the Secret the
 *      bootstrap put in the edge cluster, reaching the edge as its ServiceAccount (agent-token.ts:
 *      the edge's RBAC judges it, not an admin token), state in `<data>/edges/<name>/agent/`, polling every
 *      `pollIntervalSeconds` with `agentTimeoutSeconds` as its `--center-timeout` and
 *      `heartbeatSeconds` as its `--heartbeat-interval` and `holdSeconds` as its `--hold-seconds`
 *      (held polls), serving /healthz, /readyz and /metrics on
 *      a loopback port picked once per start (in stack.json as `agentHealthPort`).
 * Logs go to `<data>/edges/<name>/edge.log` and `agent.log`. `info()` describes the running edges for
 * stack.json (pids change when a child is restarted; `onChange` says so).
 */
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { KubeConfig } from '@kubernetes/client-node'
import type { Logger } from '../../lib/log.ts'
import { writeAgentKubeconfig } from './agent-token.ts'
import { loadOrCreateToken, writePrivateFile } from './data-dir.ts'
import { type HubCall, type RegisteredEdge, registerEdges } from './edge-inventory.ts'
import type { Center } from './edge-join.ts'
import { joinEdge } from './edge-join.ts'
import type { EdgeSpec } from './edges-config.ts'
import { waitHealthy } from './health.ts'
import { type KubeconfigContext, renderKubeconfig } from './kubeconfig.ts'
import type { Part } from './parts.ts'
import { pickFreePort } from './ports.ts'
import type { ProgramRunner } from './program-bundles.ts'
import type { EdgeInfo } from './stack-info.ts'
import { type StoreKey, storeKeyEnv } from './store-key.ts'
import { EDGE_AGENT_MAIN, EDGE_SIM_MAIN, type Supervisor, supervise } from './supervise.ts'

export type LocalEdgesOptions = {
  edges: EdgeSpec[]
  repoRoot: string
  dataDir: string
  center: Center
  hub: HubCall
  ddbEndpoint: string
  /** The local store's key, given to each simulated edge as its AWS credentials. */
  storeKey?: StoreKey
  /** Folder with the hub's cert.pem and key.pem, which the edges serve too. */
  tlsDir: string
  pollIntervalSeconds: number
  /** The agents' `--center-timeout` (their default, 30 s, when absent). */
  agentTimeoutSeconds?: number
  /** The agents' `--heartbeat-interval` (their default, 60 s, when absent). */
  heartbeatSeconds?: number
  /** The agents' `--hold-seconds` (their default, 300 s, when absent). */
  holdSeconds?: number
  logLevel: string
  /** How the edge and agent programs run (program-bundles.ts); their sources when absent. */
  programs?: ProgramRunner
  log: Logger
  /** Called when a child's pid changed (a restart), to rewrite stack.json. */
  onChange(): void
  /** Registers a started part at once, so a failure later in the start stops it. */
  addPart(part: Part): void
  readyTimeoutMs?: number
}

export type LocalEdges = {
  /** A kubeconfig context per edge, named after it. */
  contexts: KubeconfigContext[]
  info(): EdgeInfo[]
}

type Running = Omit<EdgeInfo, 'pid' | 'agentPid'> & {
  token: string
  sim: Supervisor
  agent: Supervisor
}

async function startEdge(o: LocalEdgesOptions, edge: RegisteredEdgePromise): Promise<Running> {
  const { spec } = edge
  const dir = join(o.dataDir, 'edges', spec.name)
  await mkdir(dir, { recursive: true })
  const tokenFile = join(dir, 'admin-token')
  const { token } = await loadOrCreateToken(tokenFile)
  const port = await pickFreePort()
  const url = `https://127.0.0.1:${port}`
  const child = (name: string) => ({
    cwd: o.repoRoot,
    env: { LOG_LEVEL: o.logLevel, NODE_EXTRA_CA_CERTS: join(o.tlsDir, 'cert.pem') },
    log: o.log,
    onSpawn: () => o.onChange(),
    logFile: join(dir, `${name}.log`),
  })
  const edgeChild = child('edge')
  const sim = supervise({
    ...edgeChild,
    env: { ...edgeChild.env, ...(o.storeKey ? storeKeyEnv(o.storeKey) : {}) },
    name: `edge ${spec.name}`,
    main: EDGE_SIM_MAIN,
    ...(o.programs ? { command: o.programs.argv(EDGE_SIM_MAIN) } : {}),
    args: [
      ...['--name', spec.name, '--ddb-endpoint', o.ddbEndpoint, '--token-file', tokenFile],
      ...['--cert-dir', o.tlsDir, '--port', String(port), '--parent-pid', String(process.pid)],
      ...(spec.faults ? ['--faults', spec.faults] : []),
    ],
  })
  o.addPart({ name: `edge ${spec.name}`, stop: () => sim.stop() })
  await waitHealthy(`${url}/healthz`, {
    timeoutMs: o.readyTimeoutMs ?? 60_000,
    ca: o.center.caPem,
  })
  const context: KubeconfigContext = { name: spec.name, server: url, token }
  const kubeconfigText = renderKubeconfig({
    hubUrl: o.center.url,
    adminToken: token,
    caPem: o.center.caPem,
    spaces: [],
    extra: [context],
  })
  const kubeconfig = join(dir, 'kubeconfig')
  await writePrivateFile(kubeconfig, kubeconfigText)
  const registered = await edge.registered
  const edgeKube = new KubeConfig()
  edgeKube.loadFromString(kubeconfigText)
  const joined = await joinEdge({
    center: o.center,
    edge: registered,
    edgeKube,
    dir,
    pollIntervalSeconds: o.pollIntervalSeconds,
    log: o.log,
  })
  o.log.info('edge joined', {
    edge: spec.name,
    mailbox: joined.mailbox,
    issued: joined.issued,
    ...(joined.repaired ? { repaired: joined.repaired } : {}),
  })
  const agentKubeconfig = await writeAgentKubeconfig({
    name: spec.name,
    url,
    adminToken: token,
    caPem: o.center.caPem,
    dir,
  })
  const agentHealthPort = await pickFreePort()
  const agent = supervise({
    ...child('agent'),
    name: `agent ${spec.name}`,
    main: EDGE_AGENT_MAIN,
    ...(o.programs ? { command: o.programs.argv(EDGE_AGENT_MAIN) } : {}),
    args: [
      ...['--center', joined.centerUrl, '--mailbox', joined.mailbox],
      ...['--token-file', joined.tokenFile, '--kubeconfig', agentKubeconfig],
      ...['--state-dir', join(dir, 'agent'), '--poll-interval', String(o.pollIntervalSeconds)],
      ...['--parent-pid', String(process.pid)],
      ...['--health-host', '127.0.0.1', '--health-port', String(agentHealthPort)],
      ...(joined.caFile ? ['--center-ca', joined.caFile] : []),
      ...(o.agentTimeoutSeconds ? ['--center-timeout', String(o.agentTimeoutSeconds)] : []),
      ...(o.heartbeatSeconds ? ['--heartbeat-interval', String(o.heartbeatSeconds)] : []),
      ...(o.holdSeconds !== undefined ? ['--hold-seconds', String(o.holdSeconds)] : []),
    ],
  })
  o.addPart({ name: `agent ${spec.name}`, stop: () => agent.stop() })
  return {
    name: spec.name,
    url,
    port,
    mailbox: joined.mailbox,
    dir,
    agentHealthPort,
    token,
    sim,
    agent,
  }
}

type RegisteredEdgePromise = { spec: EdgeSpec; registered: Promise<RegisteredEdge> }

export async function startLocalEdges(o: LocalEdgesOptions): Promise<LocalEdges> {
  const registering = registerEdges(o.hub, o.edges)
  // Registration failures surface through each edge's await; this only keeps them handled.
  registering.catch(() => undefined)
  const running = await Promise.all(
    o.edges.map((spec) =>
      startEdge(o, {
        spec,
        registered: registering.then((all) => {
          const r = all.find((e) => e.name === spec.name)
          if (!r) throw new Error(`edge ${spec.name} was not registered`)
          return r
        }),
      })
    )
  )
  return {
    contexts: running.map((r) => ({ name: r.name, server: r.url, token: r.token })),
    info: () =>
      running.map(({ sim, agent, token: _token, ...r }) => ({
        ...r,
        pid: sim.pid(),
        agentPid: agent.pid(),
      })),
  }
}
