/**
 * One propagation run with N agents. Untimed: the workload and its placement are driven into the
 * mailboxes (edge-placement.ts), N real agents start polling (edge-agents.ts; over processes of
 * their own past AGENTS_PER_PROCESS agents, edge-fleet.ts) with their state folders on tmpfs when
 * there is one, and the run waits until each has applied the namespace and
 * polled twice. Then one poll interval with every agent idle is counted (DynamoDB requests per
 * agent poll). Timed, per change: the clock starts when the source write is sent (a create of the
 * ConfigMap `prop` in the workload space, then merge patches of its data), the translate keys are
 * posted to `/hooks/translate` right after it returns (as the relay would), and each agent's
 * latency is the moment its edge cluster stored the object carrying the change's marker. The
 * event-loop delay over the timed part tells whether this process (the hub's, and the agents' when
 * they run in it) was saturated.
 */
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { processesFor, startAgents } from './edge-fleet.ts'
import type { EdgeInventory } from './edge-inventory.ts'
import { changeMarker, EDGE_NAMESPACE, PROP_CONFIGMAP, propConfigMap } from './edge-objects.ts'
import { placeWorkload, translateAll } from './edge-placement.ts'
import { createTracker } from './edge-tracker.ts'
import type { ChangeRun, EdgeDeps, EdgeOptions, PropagationRun } from './edge-types.ts'
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

async function waitFor(what: string, check: () => boolean, timeoutMs: number, why: () => string) {
  const until = performance.now() + timeoutMs
  while (!check()) {
    if (performance.now() > until) throw new Error(`edge: ${what} timed out: ${why()}`)
    await sleep(100)
  }
}

export async function runPropagation(
  deps: EdgeDeps,
  opts: EdgeOptions,
  inv: EdgeInventory
): Promise<PropagationRun> {
  const { hub, progress, counter } = deps
  const n = inv.members.length
  const interval = opts.pollIntervalMs
  const t0 = performance.now()
  progress(`edge: placing the workload into ${n} mailboxes (not timed)`)
  const space = await placeWorkload(deps, opts, n, inv.mailboxes)
  const placementMs = performance.now() - t0
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
      `edge: ${n} agents polling every ${interval} ms, coming online over ${(spread / 1000).toFixed(0)} s; waiting until all settled`
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
    const polls0 = fleet.stats().polls
    const w0 = performance.now()
    await sleep(interval)
    const idleWindow = {
      ms: performance.now() - w0,
      polls: fleet.stats().polls - polls0,
      requests: counter.snapshot(),
      requestsTotal: counter.total(),
    }
    const changes: ChangeRun[] = []
    const samples: number[] = []
    const loop = monitorEventLoopDelay({ resolution: 10 })
    loop.enable()
    const path = configMapsPath(space, EDGE_NAMESPACE)
    for (let k = 0; k < opts.changes; k++) {
      const marker = changeMarker(n, k)
      const kind = k === 0 ? 'create' : 'update'
      progress(`edge: change ${k + 1}/${opts.changes} (${kind}) -> ${n} agents (timed)`)
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
      agentProcesses: processesFor(n, opts.agentsPerProcess),
      setupMs: {
        inventory: inv.inventoryMs,
        tokens: inv.tokensMs,
        placement: placementMs,
        agentsReady,
      },
      idleWindow,
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
