/**
 * The Job controller: while a Job is neither suspended nor finished it keeps
 * min(parallelism, completions - succeeded) pods running (`<job>-<5 random chars>`, or
 * `<job>-<index>-…` with the completion-index annotation for Indexed Jobs); its pods succeed on
 * their own (sim-pods.ts). The status follows kube's: startTime, active, ready, succeeded,
 * terminating, uncountedTerminatedPods, and once `completions` pods succeeded the conditions
 * SuccessCriteriaMet and Complete (reason CompletionsReached) with completionTime. A failed pod
 * (the `job-fail` fault, sim-pod-end.ts) counts in `failed` and is replaced after the controller's
 * back-off (10 s doubling, at most 6 minutes); past `backoffLimit` (default 6) failures the Job
 * gets FailureTarget and Failed (reason BackoffLimitExceeded) and no more pods. Events:
 * SuccessfulCreate per pod, Completed or the Warning BackoffLimitExceeded once.
 */
import { jsonEqual } from '../hub/metadata.ts'
import { timestamp } from '../kube/time.ts'
import type { KubeObject } from '../kube/types.ts'
import {
  conditionsOf,
  hasCondition,
  isReady,
  isTerminated,
  phaseOf,
  setCondition,
} from './conditions.ts'
import { num, type Obj, objects, peek, specOf, statusOf, str } from './json.ts'
import { createIn, ownedBy, type SimContext, updateIn, wakeAt } from './sim-context.ts'
import { recordEvent, SOURCES } from './sim-events.ts'
import { podFromTemplate } from './sim-pods.ts'

const INDEX = 'batch.kubernetes.io/job-completion-index'
const DONE_MESSAGE = 'Reached expected number of succeeded pods'

const LIMIT_MESSAGE = 'Job has reached the specified backoff limit'
const FIRST_BACKOFF_MS = 10_000
const MAX_BACKOFF_MS = 360_000

const finished = (job: KubeObject) => hasCondition(job, 'Complete') || hasCondition(job, 'Failed')

function counts(ctx: SimContext, job: KubeObject) {
  const pods = ownedBy(ctx, 'pods', job.metadata.uid)
  const succeeded = pods.filter((p) => phaseOf(p) === 'Succeeded')
  const failed = pods.filter((p) => phaseOf(p) === 'Failed')
  const active = pods.filter((p) => !isTerminated(p))
  const completions = num(job.spec, 'completions', 1)
  const backoffLimit = num(job.spec, 'backoffLimit', 6)
  return { pods, succeeded, failed, active, completions, backoffLimit }
}

/** When the last of `failed` pods ended (ms; NaN when none says). */
function lastFailure(failed: KubeObject[]): number {
  const ends = failed.flatMap((p) =>
    objects(statusOf(p), 'containerStatuses').map((c) =>
      Date.parse(str(peek(peek(c, 'state'), 'terminated'), 'finishedAt'))
    )
  )
  const known = ends.filter(Number.isFinite)
  return known.length > 0 ? Math.max(...known) : Number.NaN
}

/**
 * Whether the Job controller waits before replacing a failed pod: its back-off doubles from 10 s
 * per failure, up to 6 minutes, counted from the last failure (asks to be woken then).
 */
function backingOff(ctx: SimContext, failed: KubeObject[]): boolean {
  if (failed.length === 0) return false
  const due =
    lastFailure(failed) + Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (failed.length - 1))
  if (!Number.isFinite(due) || due <= ctx.now().getTime()) return false
  wakeAt(ctx, due)
  return true
}

function nextIndex(pods: KubeObject[], completions: number): number {
  const used = new Set(pods.map((p) => p.metadata.annotations?.[INDEX]))
  for (let i = 0; i < completions; i++) if (!used.has(String(i))) return i
  return completions
}

export async function syncJobs(ctx: SimContext): Promise<void> {
  for (const job of [...ctx.snap.jobs]) {
    const spec = specOf(job)
    if (job.metadata.deletionTimestamp || finished(job) || spec.suspend === true) continue
    const { pods, succeeded, failed, active, completions, backoffLimit } = counts(ctx, job)
    if (failed.length > backoffLimit || backingOff(ctx, failed)) continue
    const parallelism = num(spec, 'parallelism', 1)
    const want = Math.min(parallelism, Math.max(0, completions - succeeded.length)) - active.length
    const indexed = str(spec, 'completionMode') === 'Indexed'
    for (let i = 0; i < want; i++) {
      const index = indexed
        ? nextIndex(
            pods.filter((p) => phaseOf(p) !== 'Failed'),
            completions
          )
        : -1
      const extra =
        index >= 0
          ? {
              generateName: `${job.metadata.name}-${index}-`,
              labels: { [INDEX]: String(index) },
              annotations: { [INDEX]: String(index) },
              spec: { hostname: `${job.metadata.name}-${index}` },
            }
          : {}
      const pod = await createIn(ctx, 'pods', podFromTemplate(ctx, job, spec.template, extra))
      if (!pod) continue
      pods.push(pod)
      const message = `Created pod: ${pod.metadata.name ?? ''}`
      await recordEvent(ctx, job, { source: SOURCES.job, reason: 'SuccessfulCreate', message })
    }
  }
}

/** The Job's conditions with `types` set True for its end (in that order), as kube's controller sets them. */
function ended(
  job: KubeObject,
  types: string[],
  why: { reason: string; message: string },
  now: string
) {
  return types.reduce(
    (conditions, type) =>
      setCondition(conditions, { type, status: 'True', ...why }, now, { probe: true }),
    conditionsOf(job)
  )
}

export function jobStatus(ctx: SimContext, job: KubeObject): Obj {
  const old = statusOf(job)
  if (finished(job)) return old
  const { succeeded, failed, active, completions, backoffLimit } = counts(ctx, job)
  const now = timestamp(ctx.now())
  const status: Obj = {
    ...(old.startTime || specOf(job).suspend === true ? {} : { startTime: now }),
    ...old,
    ready: active.filter(isReady).length,
    terminating: 0,
    uncountedTerminatedPods: {},
  }
  if (active.length > 0) status.active = active.length
  else delete status.active
  if (succeeded.length > 0) status.succeeded = succeeded.length
  if (failed.length > 0) status.failed = failed.length
  if (failed.length > backoffLimit && active.length === 0) {
    status.conditions = ended(
      job,
      ['FailureTarget', 'Failed'],
      { reason: 'BackoffLimitExceeded', message: LIMIT_MESSAGE },
      now
    )
    delete status.active
    return status
  }
  if (succeeded.length >= completions) {
    status.conditions = ended(
      job,
      ['SuccessCriteriaMet', 'Complete'],
      { reason: 'CompletionsReached', message: DONE_MESSAGE },
      now
    )
    status.completionTime = now
    delete status.active
  }
  return status
}

export async function jobStatuses(ctx: SimContext): Promise<void> {
  for (const job of [...ctx.snap.jobs]) {
    if (job.metadata.deletionTimestamp) continue
    const status = jobStatus(ctx, job)
    if (jsonEqual(status, job.status ?? {})) continue
    const written = await updateIn(
      ctx,
      'jobs',
      { ...job, status: status as never },
      { status: true }
    )
    if (!written || finished(job) || !finished(written)) continue
    const failedNow = hasCondition(written, 'Failed')
    await recordEvent(ctx, written, {
      source: SOURCES.job,
      ...(failedNow
        ? { reason: 'BackoffLimitExceeded', message: LIMIT_MESSAGE, type: 'Warning' as const }
        : { reason: 'Completed', message: 'Job completed' }),
    })
  }
}
