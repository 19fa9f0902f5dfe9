/**
 * One mode of a propagation run (edge-propagation.ts places the workload first): N real agents
 * start polling — plainly, or with held polls of `holdSeconds` (edge-agents.ts; over processes of
 * their own past AGENTS_PER_PROCESS agents, edge-fleet.ts) — with their state folders on tmpfs
 * when there is one, and the run waits until each has applied the namespace and polled twice.
 * Then an idle window is counted, every agent idle: one poll interval for plain polls (as
 * before held polls), one hold plus IDLE_HOLD_SLACK_MS for held ones, so that every agent's hold
 * ends and starts again inside it: the hub's DynamoDB requests per poll. The edge API requests the
 * agents sent (edge-requests.ts) and the hub's DynamoDB requests are also counted over a window
 * as long in both modes (the held one's when held runs are made), so that the plain agents'
 * once-a-minute heartbeats count as the held ones' do. Timed, per change: the clock starts when the source write is
 * sent (a create of the ConfigMap `prop` in the workload space when it does not exist yet, then
 * merge patches of its data), the translate keys are posted to `/hooks/translate` right after it
 * returns (as the relay would), and each agent's latency is the moment its edge cluster stored
 * the object carrying the change's marker. The event-loop delay over the timed part tells whether
 * this process (the hub's, and the agents' when they run in it) was saturated.
 */
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { processesFor, startAgents } from './edge-fleet.ts'
import type { EdgeInventory } from './edge-inventory.ts'
import { changeMarker, EDGE_NAMESPACE, PROP_CONFIGMAP, propConfigMap } from './edge-objects.ts'
import { translateAll } from './edge-placement.ts'
import { requestsSince, requestsTotal } from './edge-requests.ts'
import { createTracker } from './edge-tracker.ts'
import type { ChangeRun, EdgeDeps, EdgeOptions, PollMode, PropagationRun } from './edge-types.ts'
import { configMapsPath } from './fan-out-objects.ts'
import { summarize } from './stats.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
/** How long a change may take before its stragglers count as missing. */
export const changeTimeoutMs = (intervalMs: number) => intervalMs * 3 + 60_000
/**
 * Agents coming online per second at most: the first poll of each is a full answer, so 10,000
 * agents starting within one 15 s interval would ask the hub for 667 of them a second (setup,
 * not timed); they start over `agents / START_RATE` seconds instead when that is longer.
 */
export const START_RATE = 50
export const startSpreadMs = (agents: number, intervalMs: number) =>
  Math.max(intervalMs, (agents / START_RATE) * 1000)
/** A held run's idle window beyond one hold: the least gap between holds (1 s) and some room. */
export const IDLE_HOLD_SLACK_MS = 5000
/** The idle window of a run: one interval (plain), one hold and the slack (held). */
export const idleWindowMs = (intervalMs: number, holdSeconds: number) =>
  holdSeconds > 0 ? Math.max(intervalMs, holdSeconds * 1000 + IDLE_HOLD_SLACK_MS) : intervalMs

async function waitFor(what: string, check: () => boolean, timeoutMs: number, why: () => string) {
  const until = performance.now() + timeoutMs
  while (!check()) {
    if (performance.now() > until) throw new Error(`edge: ${what} timed out: ${why()}`)
    await sleep(100)
  }
}

export type ModeRun = {
  mode: PollMode
  /** The workload space's path (edge-placement.ts `placeWorkload`). */
  space: string
  placementMs: number
  /** The first change's index (its marker): a later mode goes on from the earlier's last. */
  firstChange: number
  /** Whether the ConfigMap `prop` exists already (an earlier mode created it). */
  propExists: boolean
}

export async function runMode(
  deps: EdgeDeps,
  opts: EdgeOptions,
  inv: EdgeInventory,
  m: ModeRun
): Promise<PropagationRun> {
  const { hub, progress, counter } = deps
  const n = inv.members.length
  const interval = opts.pollIntervalMs
  const holdSeconds = m.mode === 'held' ? opts.holdSeconds : 0
  const label = m.mode === 'held' ? `held polls (wait=${holdSeconds} s)` : 'plain polls'
  const shm = '/dev/shm'
  const stateRoot = await mkdtemp(join(existsSync(shm) ? shm : tmpdir(), 'edgeplane-bench-'))
  const tracker = createTracker(n)
  const ready = new Set<number>()
  const spread = startSpreadMs(n, interval)
  const fleet = await startAgents(
    {
      baseUrl: hub.baseUrl,
      members: inv.members,
      intervalMs: interval,
      ...(holdSeconds > 0 ? { holdSeconds } : {}),
      startSpreadMs: spread,
      stateRoot,
      onWrite: (i, { ref, marker, atMs }) => {
        if (ref.resource === 'namespaces' && ref.name === EDGE_NAMESPACE) ready.add(i)
        else if (ref.resource === 'configmaps' && ref.name === PROP_CONFIGMAP)
          tracker.observe(i, marker, atMs)
      },
    },
    opts.agentsPerProcess
  ).catch(async (e: unknown) => {
    await rm(stateRoot, { recursive: true, force: true })
    throw e
  })
  let stopped = false
  try {
    progress(
      `edge: ${n} agents, ${label}, interval ${interval} ms, coming online over ${(spread / 1000).toFixed(0)} s; waiting until all settled`
    )
    const t1 = performance.now()
    await waitFor(
      `${n} agents settling`,
      () => ready.size === n && fleet.okPolls().every((c) => c >= 2),
      spread + changeTimeoutMs(interval),
      () => `${ready.size}/${n} applied the namespace; ${fleet.errors().join('; ')}`
    )
    const agentsReady = performance.now() - t1
    await deps.settle()
    counter.reset()
    const windowMs = opts.shortIdle ? interval : idleWindowMs(interval, holdSeconds)
    const requestsMs = opts.shortIdle ? interval : idleWindowMs(interval, opts.holdSeconds)
    progress(
      `edge: ${n} agents, ${label}: idle window of ${(windowMs / 1000).toFixed(0)} s, requests counted over ${(requestsMs / 1000).toFixed(0)} s`
    )
    const polls0 = fleet.stats().polls
    const sent0 = fleet.requests()
    const w0 = performance.now()
    await sleep(windowMs)
    const idleWindow = {
      ms: performance.now() - w0,
      polls: fleet.stats().polls - polls0,
      requests: counter.snapshot(),
      requestsTotal: counter.total(),
    }
    // Plain agents beside held ones: their requests over as long a window (heartbeats included).
    await sleep(Math.max(0, w0 + requestsMs - performance.now()))
    const agentRequests = requestsSince(sent0, fleet.requests())
    const idleRequests = {
      ms: performance.now() - w0,
      agentRequests,
      requests: counter.snapshot(),
      requestsTotal: counter.total(),
    }
    progress(
      `edge: ${n} agents, ${label}: ${requestsTotal(agentRequests)} edge API requests while idle (${agentRequests.desired} desired, ${agentRequests.held} held, ${agentRequests.reports} reports; ${agentRequests.failed} failed)`
    )
    const changes: ChangeRun[] = []
    const samples: number[] = []
    const loop = monitorEventLoopDelay({ resolution: 10 })
    loop.enable()
    const path = configMapsPath(m.space, EDGE_NAMESPACE)
    for (let k = 0; k < opts.changes; k++) {
      const marker = changeMarker(n, m.firstChange + k)
      const kind = k === 0 && !m.propExists ? 'create' : 'update'
      progress(`edge: change ${k + 1}/${opts.changes} (${kind}) -> ${n} agents, ${label} (timed)`)
      counter.reset()
      const start = performance.now()
      tracker.begin(marker, start)
      if (kind === 'create')
        await hub.call('POST', path, { body: propConfigMap(marker, opts.itemBytes), expect: 201 })
      else
        await hub.call('PATCH', `${path}/${PROP_CONFIGMAP}`, {
          body: { data: { marker } },
          contentType: 'application/merge-patch+json',
        })
      const writeMs = performance.now() - start
      await translateAll(deps, opts, inv.mailboxes)
      const translateMs = performance.now() - start
      const out = await tracker.wait(changeTimeoutMs(interval))
      samples.push(...out.latenciesMs)
      const latency = summarize(out.latenciesMs)
      progress(
        `edge: change ${k + 1}: p50 ${latency.p50.toFixed(0)} ms, p99 ${latency.p99.toFixed(0)} ms, ${out.missing} missing`
      )
      changes.push({
        kind,
        writeMs,
        translateMs,
        latencyMs: latency,
        missing: out.missing,
        requests: counter.snapshot(),
        requestsTotal: counter.total(),
      })
      await sleep(500)
    }
    loop.disable()
    // the poll counts once no agent polls any more: a child process's periodic report lags
    await fleet.stop()
    stopped = true
    const loopMs = (ns: number) => ns / 1e6
    return {
      agents: n,
      intervalMs: interval,
      mode: m.mode,
      ...(holdSeconds > 0 ? { holdSeconds } : {}),
      agentProcesses: processesFor(n, opts.agentsPerProcess),
      setupMs: {
        inventory: inv.inventoryMs,
        tokens: inv.tokensMs,
        placement: m.placementMs,
        agentsReady,
      },
      idleWindow,
      idleRequests,
      changes,
      latencyMs: summarize(samples),
      missing: changes.reduce((s, c) => s + c.missing, 0),
      polls: fleet.stats(),
      loopDelayMs: {
        p50: loopMs(loop.percentile(50)),
        p99: loopMs(loop.percentile(99)),
        max: loopMs(loop.max),
      },
    }
  } finally {
    if (!stopped) await fleet.stop()
    await rm(stateRoot, { recursive: true, force: true })
  }
}
