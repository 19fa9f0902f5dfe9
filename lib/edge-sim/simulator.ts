/**
 * The workload simulator of a simulated edge cluster: what kube's controllers, scheduler and
 * kubelet would do, run as level-based, idempotent passes over the edge hub's store through the
 * in-process hub client. A pass reads every workload object once, then: collects orphans, rolls
 * Deployments, scales ReplicaSets, Jobs, StatefulSets and DaemonSets, binds/starts/finishes pods,
 * and writes the statuses that changed, with the Events kube records; now and then it removes
 * expired Events. `start()` runs a pass every `periodMs` (300 ms) when the
 * store's resourceVersion moved, when something is due (a Job pod ending) or every `resyncMs`;
 * an idle edge costs one read per period. Tests call `tick()` directly.
 */
import { createHubClient } from '../hub/client.ts'
import type { HubDeps } from '../hub/deps.ts'
import { createLogger, type Logger } from '../log.ts'
import type { Fault } from './faults.ts'
import { loadSnapshot, type NodeInfo, type SimContext } from './sim-context.ts'
import { daemonSetStatuses, syncDaemonSets } from './sim-daemonsets.ts'
import { deploymentStatuses } from './sim-deployment-status.ts'
import { syncDeployments } from './sim-deployments.ts'
import { expireEvents } from './sim-events.ts'
import { collectOrphans } from './sim-gc.ts'
import { jobStatuses, syncJobs } from './sim-jobs.ts'
import { runKubelet } from './sim-pods.ts'
import { replicaSetStatuses, scaleReplicaSets } from './sim-replicasets.ts'
import { statefulSetStatuses, syncStatefulSets } from './sim-statefulsets.ts'

export type SimulatorOptions = {
  deps: HubDeps
  node: NodeInfo
  /** The space holding the edge cluster's objects; default `root`. */
  space?: string
  periodMs?: number
  resyncMs?: number
  jobDurationMs?: number
  /** The failures this edge is told to have (faults.ts: image-pull, crash-loop, job-fail). */
  faults?: readonly Fault[]
  /** How long an Event is kept after it was last seen (default an hour, as kube's --event-ttl). */
  eventTtlMs?: number
  now?: () => Date
  random?: () => number
  log?: Logger
}

export type TickResult = { writes: number; wakeAt?: number }

export type Simulator = {
  /** One pass; resolves with the number of writes it made. */
  tick(): Promise<TickResult>
  start(): void
  /** Stops the loop and waits for a running pass. */
  stop(): Promise<void>
}

export function createSimulator(opts: SimulatorOptions): Simulator {
  const { deps } = opts
  const now = opts.now ?? (() => new Date())
  const log = opts.log ?? createLogger({ level: 'warn' })
  const controller = createHubClient(deps, { fieldManager: 'kube-controller-manager' })
  const kubelet = createHubClient(deps, { fieldManager: 'kubelet' })
  const space = opts.space ?? 'root'
  const periodMs = opts.periodMs ?? 300
  const resyncMs = opts.resyncMs ?? 10_000
  const eventTtlMs = opts.eventTtlMs ?? 3_600_000
  let lastEventSweep = Number.NEGATIVE_INFINITY

  const tick = async (): Promise<TickResult> => {
    const ctx: SimContext = {
      controller,
      kubelet,
      space,
      node: opts.node,
      now,
      random: opts.random ?? Math.random,
      log,
      jobDurationMs: opts.jobDurationMs ?? 1000,
      faults: opts.faults ?? [],
      snap: await loadSnapshot(controller, space),
      writes: 0,
    }
    await collectOrphans(ctx)
    const created = await syncDeployments(ctx)
    await scaleReplicaSets(ctx)
    await syncJobs(ctx)
    await syncStatefulSets(ctx)
    await syncDaemonSets(ctx)
    await runKubelet(ctx)
    await replicaSetStatuses(ctx)
    await deploymentStatuses(ctx, created)
    await jobStatuses(ctx)
    await statefulSetStatuses(ctx)
    await daemonSetStatuses(ctx)
    // Expired Events are looked for at most every twelfth of their lifetime (5 minutes by default).
    if (now().getTime() - lastEventSweep >= eventTtlMs / 12) {
      lastEventSweep = now().getTime()
      await expireEvents(ctx, eventTtlMs)
    }
    return { writes: ctx.writes, ...(ctx.wakeAt !== undefined ? { wakeAt: ctx.wakeAt } : {}) }
  }

  let timer: ReturnType<typeof setTimeout> | undefined
  let running: Promise<void> | undefined
  let stopped = false
  let lastRv = -1
  let lastPass = 0
  let due: number | undefined

  const pass = async () => {
    const rv = await deps.objects.currentRv()
    const t = now().getTime()
    const wanted = rv !== lastRv || (due !== undefined && t >= due) || t - lastPass >= resyncMs
    if (!wanted) return
    lastPass = t
    due = (await tick()).wakeAt
    // Only a pass that ran to the end settles this resourceVersion; a failed one is retried.
    lastRv = rv
  }
  const loop = () => {
    running = pass()
      .catch((e: unknown) => log.warn('simulator pass failed', { error: e }))
      .finally(() => {
        running = undefined
        if (!stopped) timer = setTimeout(loop, periodMs)
      })
  }

  return {
    tick,
    start() {
      if (timer || running) return
      stopped = false
      loop()
    },
    async stop() {
      stopped = true
      clearTimeout(timer)
      timer = undefined
      await running
    },
  }
}
