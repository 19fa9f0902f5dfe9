/**
 * `npm run bench -- --scale`: the ten-thousand-edge figures. For each size (`--scale-edges`, by
 * default 1,000 and 10,000), on a fresh in-process stack (stack.ts): registration (SyncTargets and
 * Locations written → every mailbox made: fan-out-setup.ts), the fan-out of `--scale-objects`
 * ConfigMaps to every mailbox and the change of one (fan-out.ts), with DynamoDB requests per
 * mailbox and the reconcile runs that changed nothing. On the largest size's stack, then, the idle
 * fleet: every mailbox gets its edge credential and is polled once per poll interval by a separate
 * process (scale-idle.ts) — store requests per poll and the center's CPU — and idle polls per
 * second against a bare 304 endpoint (edge-idle.ts); then the same fleet holding its polls
 * (held-idle.ts), and while every one of them holds, propagation to real agents at the
 * `--edge-agents` counts (edge.ts), plain polls then held ones. With the held fleet left out
 * (`--scale-hold-seconds 0`) propagation runs on a stack of its own, plain polls only. Last, unless `--skip-npm-start`, the
 * registration, fan-out and change rows again through `npm start`'s stack at `--npm-start-edges`
 * (scale-npm-start.ts), and, unless `--skip-npm-start-edges`, propagation to `--npm-start-agents`
 * real agents through a stack of its own, plain polls at 15 s beside held ones (npm-start-edges.ts).
 * After the idle fleet, on the same stack, the storm: the center stopped for
 * `--storm-outage-seconds` under every mailbox's simulated agent, then resumed (storm.ts).
 * scale-report.ts renders it all and the goals line.
 */
import { HOLD_DEFAULT_SECONDS } from '../lib/edge/protocol.ts'
import { IDLE_MAILBOXES, runEdge } from './edge.ts'
import { measureIdle } from './edge-idle.ts'
import { answerBytes, type PollTarget } from './edge-poll.ts'
import type { EdgeResults, IdleResults } from './edge-types.ts'
import { runFanOut } from './fan-out.ts'
import type { FanOutResults } from './fan-out-types.ts'
import { fleetTargets, withFreshEtags } from './fleet-targets.ts'
import { type HeldIdle, measureHeldFleet } from './held-idle.ts'
import { createHubClient } from './hub-client.ts'
import { summarizeByKind } from './invocation-log.ts'
import { type NpmStartEdges, runNpmStartEdges } from './npm-start-edges.ts'
import { NPM_START_INTERVAL_MS } from './npm-start-edges-report.ts'
import type { BenchOptions } from './options.ts'
import { runRawBaseline } from './raw-dynamo.ts'
import { runRolloutPhase } from './rollout-phase.ts'
import type { RolloutResults } from './rollout-types.ts'
import type { ScaleBudgets } from './scale-budgets.ts'
import { type IdleFleet, measureIdleFleet } from './scale-idle.ts'
import { type NpmStartScale, runNpmStartScale } from './scale-npm-start.ts'
import { summarizeOnce } from './scale-summarize.ts'
import { BENCH_TOKEN, type BenchStack, edgeDepsOf, startBenchStack } from './stack.ts'
import { benchLiveness, runStorm, type StormResult } from './storm.ts'

export type ScaleResults = {
  rows: FanOutResults[]
  /** The idle fleet, the bare-endpoint ratio, and one mailbox's full desired answer in bytes. */
  idle: {
    fleet: IdleFleet
    /** The same fleet holding its polls (held-idle.ts); null when left out. */
    held: HeldIdle | null
    bare: IdleResults
    answerBytes: { identity: number; gzip: number }
  } | null
  /** The rollout phase on the largest size's stack (rollout-phase.ts), null when left out. */
  rollout: RolloutResults | null
  /** The storm phase on the largest size's stack (storm.ts), null when left out. */
  storm: StormResult | null
  propagation: EdgeResults | null
  npmStart: NpmStartScale | null
  /** Propagation to real agents through npm start, plain then held (npm-start-edges.ts). */
  npmStartEdges: NpmStartEdges | null
  /** Per in-process size, the invocations' overruns and refusals by kind (scale-budgets.ts). */
  budgets: ScaleBudgets[]
}

type Progress = (message: string) => void

/** Raw PutItem throughput of a stack, which the fan-out report relates translate to. */
async function rawPutPerSec(stack: BenchStack, o: BenchOptions, progress: Progress) {
  const raw = await runRawBaseline(
    stack.rawClient,
    stack.rawTable,
    {
      ops: 200,
      concurrency: o.concurrency,
      itemBytes: o.itemBytes,
      listItems: 10,
      listOps: 1,
      listLimit: 10,
    },
    progress
  )
  return raw.putConcurrent.opsPerSec
}

async function idleOn(
  stack: BenchStack,
  o: BenchOptions,
  progress: Progress,
  at: { targets: readonly PollTarget[]; placementKey: string; whileHeld?: () => Promise<void> }
) {
  const { targets, placementKey, whileHeld } = at
  const fleet = await measureIdleFleet(
    { baseUrl: stack.hub.url, counter: stack.counter, storeCpuMs: stack.storeCpuMs, progress },
    targets,
    { intervalMs: o.pollIntervalMs, intervals: o.scaleIdleIntervals }
  )
  const first = targets[0]
  const bytes = first
    ? await answerBytes(stack.hub.url, first.mailbox, first.token)
    : { identity: 0, gzip: 0 }
  progress('idle fleet: polls per second against a bare 304 endpoint')
  const bare = await measureIdle(edgeDepsOf(stack, progress), targets.slice(0, IDLE_MAILBOXES), {
    samples: o.costSamples,
    cold: false,
    polls: o.edgeIdlePolls,
    concurrency: o.concurrency,
  })
  const held =
    o.scaleHoldSeconds > 0
      ? await measureHeldFleet(
          {
            baseUrl: stack.hub.url,
            hub: createHubClient(stack.hub.url, BENCH_TOKEN),
            counter: stack.counter,
            storeCpuMs: stack.storeCpuMs,
            progress,
            refreshEtags: (t) => withFreshEtags(stack, t),
            ...(whileHeld ? { whileHeld } : {}),
          },
          targets,
          {
            holdSeconds: o.scaleHoldSeconds,
            intervalMs: o.pollIntervalMs,
            placementKey,
            batch: o.fanoutBatch,
            calls: o.fanoutCalls,
            itemBytes: o.itemBytes,
          }
        )
      : null
  return { fleet, held, bare, answerBytes: bytes }
}

/** The storm phase on a stack: its hub paused and resumed, its edges' liveness read after. */
function stormOn(stack: BenchStack, o: BenchOptions, progress: Progress, targets: PollTarget[]) {
  const hub = createHubClient(stack.hub.url, BENCH_TOKEN)
  const deps = {
    baseUrl: stack.hub.url,
    pause: () => stack.hub.pause(),
    resume: () => stack.hub.resume(),
    liveness: () => benchLiveness(hub, stack.hub.deps.kv, stack.hub.deps.liveness),
    progress,
  }
  return runStorm(deps, targets, {
    intervalMs: o.pollIntervalMs,
    outageMs: o.stormOutageSeconds * 1000,
  })
}

/** Keys each step's hook deferred over the fan-out, the change and the summarize run. */
function deferredBySteps(row: FanOutResults, summarize: number): Record<string, number> {
  const out: Record<string, number> = { summarize }
  for (const phase of [row.initial, row.change])
    for (const [step, n] of Object.entries(phase.deferred)) out[step] = (out[step] ?? 0) + n
  return out
}

/** The propagation run's options: both modes beside a held fleet, else plain polls alone. */
function propagationOptions(o: BenchOptions, besideHeldFleet: boolean) {
  return {
    agents: o.edgeAgents,
    pollIntervalMs: o.pollIntervalMs,
    holdSeconds: besideHeldFleet ? HOLD_DEFAULT_SECONDS : 0,
    ...(besideHeldFleet ? { shortIdle: true } : {}),
    agentsPerProcess: o.agentsPerProcess,
    changes: o.edgeChanges,
    idlePolls: o.edgeIdlePolls,
    costSamples: o.costSamples,
    coldCost: false,
    itemBytes: o.itemBytes,
    concurrency: o.concurrency,
    batch: o.fanoutBatch,
    calls: o.fanoutCalls,
    rawGetPerSec: Number.NaN,
  }
}

export async function runScale(o: BenchOptions, progress: Progress): Promise<ScaleResults> {
  const rows: FanOutResults[] = []
  const budgets: ScaleBudgets[] = []
  let idle: ScaleResults['idle'] = null
  let rollout: RolloutResults | null = null
  let storm: StormResult | null = null
  // Set when the propagation ran beside the largest stack's held fleet.
  const beside: { run: EdgeResults | null } = { run: null }
  const sizes = [...o.scaleEdges].sort((a, b) => a - b)
  for (const [i, edges] of sizes.entries()) {
    progress(`scale: ${edges} edges, in process`)
    const stack = await startBenchStack()
    try {
      const deps = {
        hub: createHubClient(stack.hub.url, BENCH_TOKEN),
        counter: stack.counter,
        bodyWrites: stack.bodyWrites,
        reconciles: stack.reconciles,
        inspect: stack.inspect,
        storeCpuMs: stack.storeCpuMs,
        progress,
      }
      const row = await runFanOut(deps, {
        targets: edges,
        objects: o.scaleObjects,
        itemBytes: o.itemBytes,
        concurrency: o.concurrency,
        batch: o.fanoutBatch,
        calls: o.fanoutCalls,
        rawPutPerSec: await rawPutPerSec(stack, o, progress),
      })
      rows.push(row)
      const at = { key: row.placementKey, edges, objects: o.scaleObjects }
      const summarized = await summarizeOnce(deps.hub, at, progress)
      budgets.push({
        edges,
        kinds: summarizeByKind(stack.invocations.all()),
        deferred: deferredBySteps(row, summarized.deferred),
        unfinished: summarized.completed ? [] : ['summarize'],
        summarize: {
          calls: summarized.calls,
          pages: summarized.pages,
          bound: summarized.bound,
          elapsedMs: summarized.elapsedMs,
        },
      })
      if (i < sizes.length - 1 || (o.skipEdge && o.skipRollout && o.skipStorm)) continue
      let targets = await fleetTargets(stack, progress)
      if (!o.skipRollout) {
        const phase = await runRolloutPhase(
          {
            ...deps,
            baseUrl: stack.hub.url,
            targets,
            refreshEtags: (t) => withFreshEtags(stack, t),
          },
          {
            edges,
            objects: o.scaleObjects,
            itemBytes: o.itemBytes,
            concurrency: o.concurrency,
            batch: o.fanoutBatch,
            calls: o.fanoutCalls,
            placementKey: row.placementKey,
            pollIntervalMs: o.pollIntervalMs,
            intervals: o.scaleIdleIntervals,
          }
        )
        rollout = phase.results
        targets = phase.targets
      }
      // Propagation to real agents, plain and held, while every other edge holds its poll.
      const whileHeld = async () => {
        beside.run = await runEdge(edgeDepsOf(stack, progress), propagationOptions(o, true))
      }
      if (!o.skipEdge)
        idle = await idleOn(stack, o, progress, {
          targets,
          placementKey: row.placementKey,
          ...(o.scaleHoldSeconds > 0 ? { whileHeld } : {}),
        })
      if (!o.skipStorm) storm = await stormOn(stack, o, progress, targets)
    } finally {
      await stack.close()
    }
  }
  let propagation: EdgeResults | null = beside.run
  if (!o.skipEdge && !propagation) {
    // no held fleet: plain polls on a stack of their own, as before held polls
    const stack = await startBenchStack()
    try {
      propagation = await runEdge(edgeDepsOf(stack, progress), propagationOptions(o, false))
    } finally {
      await stack.close()
    }
  }
  const npmStart =
    o.npmStartEdges > 0
      ? await runNpmStartScale(
          {
            edges: o.npmStartEdges,
            objects: o.npmStartObjects,
            itemBytes: o.itemBytes,
            concurrency: 16,
            phaseTimeoutMs: o.maxSeconds * 1000,
          },
          progress
        )
      : null
  const npmStartEdges =
    o.npmStartAgents > 0
      ? await runNpmStartEdges(
          {
            agents: o.npmStartAgents,
            changes: o.npmStartChanges,
            intervalMs: NPM_START_INTERVAL_MS,
            holdSeconds: HOLD_DEFAULT_SECONDS,
            itemBytes: o.itemBytes,
          },
          progress
        )
      : null
  return { rows, idle, rollout, storm, propagation, npmStart, npmStartEdges, budgets }
}
