/**
 * The edge agent's process entry: parses flags (cli-args.ts), checks the token file, loads the
 * edge cluster's KubeConfig (kube-config.ts), creates the agent over its state folder
 * (lib/edge-agent/agent.ts) and runs its loop — held polls (lib/edge-agent/held-loop.ts), or with
 * `--hold-seconds 0` plain ones (lib/edge-agent/poll-loop.ts) — until SIGTERM or
 * SIGINT (or, with `--parent-pid`, its supervisor's end), which stop it after the current poll
 * (exit 0). While the loop runs it serves /healthz, /readyz and /metrics (infra/serve-health.ts;
 * the loop's health and counts come from lib/edge-agent/agent-health.ts and agent-metrics.ts,
 * wrapped around the center client and the poll; edgeplane_build_info and the process_* series
 * from infra/process-readings.ts). `--once` polls once: exit 0 when the
 * poll succeeded, 1 otherwise. Exits 2 on bad arguments and 1 when it cannot start (unreadable
 * token file, no usable kubeconfig, an unreadable CA file, a health port it cannot bind), so a
 * supervisor restarts it. Each request to the center is bounded by `--center-timeout`; each
 * report tells the center the agent's version and poll interval (lib/edge-agent/agent-info.ts),
 * the hold it asks, and the mode and time of its last answered poll (lib/edge-agent/poll-notes.ts,
 * wrapped around the center client).
 * `npm run build` bundles this file into dist/edge-agent/main.mjs, which the image runs.
 */

import { readFile } from 'node:fs/promises'
import { builtinsFrom } from '../../lib/apis/builtins.ts'
import { createAgent } from '../../lib/edge-agent/agent.ts'
import { createPollHealth } from '../../lib/edge-agent/agent-health.ts'
import { AGENT_VERSION } from '../../lib/edge-agent/agent-info.ts'
import { createAgentMetrics } from '../../lib/edge-agent/agent-metrics.ts'
import { createCenterClient } from '../../lib/edge-agent/center-client.ts'
import { runHeldLoop } from '../../lib/edge-agent/held-loop.ts'
import { createKubeRest } from '../../lib/edge-agent/kube-rest.ts'
import { logPoll, runPollLoop } from '../../lib/edge-agent/poll-loop.ts'
import { createPollNotes } from '../../lib/edge-agent/poll-notes.ts'
import { retryAfterMemory } from '../../lib/edge-agent/retry-after.ts'
import { createLogger } from '../../lib/log.ts'
import { renderPrometheus } from '../../lib/metrics/prometheus-text.ts'
import { MetricsRegistry } from '../../lib/metrics/registry.ts'
import { logLevelFrom, untilStopped } from '../process-life.ts'
import { processMetrics } from '../process-readings.ts'
import { serveHealth } from '../serve-health.ts'
import { type AgentConfig, parseAgentArgs, USAGE } from './cli-args.ts'
import { loadKubeConfig } from './kube-config.ts'
import { recordNamespace } from './record-namespace.ts'

async function readToken(path: string): Promise<string> {
  const token = (await readFile(path, 'utf8')).trim()
  if (!token) throw new Error(`the token file ${path} is empty`)
  return token
}

async function main(): Promise<number> {
  const req = parseAgentArgs(process.argv.slice(2), process.env)
  if (req.kind === 'help') {
    process.stdout.write(USAGE)
    return 0
  }
  if (req.kind === 'error') {
    process.stderr.write(`${req.message}\n\n${USAGE}`)
    return 2
  }
  const cfg = req.config
  const level = logLevelFrom(process.env)
  const log = createLogger({ level, bindings: { component: 'edge-agent', mailbox: cfg.mailbox } })
  let setup: Awaited<ReturnType<typeof prepare>>
  try {
    setup = await prepare(cfg)
  } catch (err) {
    log.error('edge agent could not start', { err })
    return 1
  }
  const registry = new MetricsRegistry()
  const health = createPollHealth({ intervalMs: cfg.pollIntervalMs })
  let ownedCount = () => 0
  const metrics = createAgentMetrics({ registry, health, ownedCount: () => ownedCount() })
  const center = cfg.once ? setup.center : metrics.center(setup.center)
  const agent = await createAgent({
    mailbox: cfg.mailbox,
    center,
    kube: setup.kube,
    stateDir: cfg.stateDir,
    record: { namespace: await recordNamespace(cfg.namespace, setup.source === 'in-cluster') },
    builtins: builtinsFrom(cfg.builtinNamespaces),
    heartbeatMs: cfg.heartbeatMs,
    log,
  })
  log.info('edge agent started', {
    version: AGENT_VERSION,
    center: cfg.centerUrl,
    kubeconfig: setup.source,
    stateDir: cfg.stateDir,
    pollIntervalMs: cfg.pollIntervalMs,
    centerTimeoutMs: cfg.centerTimeoutMs,
    heartbeatMs: cfg.heartbeatMs,
    holdSeconds: cfg.holdSeconds,
  })
  if (cfg.once) {
    const r = await agent.poll()
    logPoll(log, r)
    return r.ok ? 0 : 1
  }
  ownedCount = () => agent.inspect().owned.size
  let server: Awaited<ReturnType<typeof serveHealth>> | undefined
  if (cfg.health) {
    try {
      server = await serveHealth(
        cfg.health,
        { ...health, metrics: () => renderPrometheus(processMetrics(registry.families.values())) },
        log
      )
    } catch (err) {
      log.error('edge agent could not start', { err })
      return 1
    }
  }
  const stop = new AbortController()
  void untilStopped({ ...(cfg.parentPid ? { parentPid: cfg.parentPid } : {}), log }).then(() =>
    stop.abort()
  )
  const poll = metrics.poll(agent.poll)
  const loop = {
    intervalMs: cfg.pollIntervalMs,
    retryAfterMs: setup.retryAfter.take,
    signal: stop.signal,
    log,
  }
  if (cfg.holdSeconds > 0 && center.holdDesired) {
    const hold = center.holdDesired.bind(center)
    const version = () => agent.inspect().desired?.version
    await runHeldLoop({ ...loop, poll, hold, version, holdSeconds: cfg.holdSeconds })
  } else await runPollLoop({ ...loop, poll })
  await server?.close()
  log.info('edge agent stopped')
  return 0
}

async function prepare(cfg: AgentConfig) {
  await readToken(cfg.tokenFile)
  const { kubeConfig, source } = loadKubeConfig(cfg, process.env)
  const ca = cfg.centerCa ? await readFile(cfg.centerCa, 'utf8') : undefined
  // The hold asked: none for `--once`, whose one poll is plain.
  const holdSeconds = cfg.once ? 0 : cfg.holdSeconds
  const notes = createPollNotes({ pollIntervalMs: cfg.pollIntervalMs, holdSeconds })
  const retryAfter = retryAfterMemory()
  const client = createCenterClient({
    baseUrl: cfg.centerUrl,
    mailbox: cfg.mailbox,
    token: () => readToken(cfg.tokenFile),
    timeoutMs: cfg.centerTimeoutMs,
    ...(ca ? { ca } : {}),
    agent: notes.info,
    onRetryAfter: retryAfter.note,
  })
  return { center: notes.center(client), kube: createKubeRest({ kubeConfig }), source, retryAfter }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`edge agent failed: ${err instanceof Error ? err.message : String(err)}\n`)
    process.exit(1)
  }
)
