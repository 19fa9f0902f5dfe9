/**
 * The Job controller: while a Job is neither suspended nor finished it keeps
 * min(parallelism, completions - succeeded) pods running (`<job>-<5 random chars>`, or
 * `<job>-<index>-…` with the completion-index annotation for Indexed Jobs); its pods succeed on
 * their own (sim-pods.ts). The status follows kube's: startTime, active, ready, succeeded,
 * terminating, uncountedTerminatedPods, and once `completions` pods succeeded the conditions
 * SuccessCriteriaMet and Complete (reason CompletionsReached) with completionTime. Events:
 * SuccessfulCreate per pod, Completed once.
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
import { num, type Obj, specOf, statusOf, str } from './json.ts'
import { createIn, ownedBy, type SimContext, updateIn } from './sim-context.ts'
import { recordEvent, SOURCES } from './sim-events.ts'
import { podFromTemplate } from './sim-pods.ts'

const INDEX = 'batch.kubernetes.io/job-completion-index'
const DONE_MESSAGE = 'Reached expected number of succeeded pods'

const finished = (job: KubeObject) => hasCondition(job, 'Complete') || hasCondition(job, 'Failed')

function counts(ctx: SimContext, job: KubeObject) {
  const pods = ownedBy(ctx, 'pods', job.metadata.uid)
  const succeeded = pods.filter((p) => phaseOf(p) === 'Succeeded')
  const active = pods.filter((p) => !isTerminated(p))
  const completions = num(job.spec, 'completions', 1)
  return { pods, succeeded, active, completions }
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
    const { pods, succeeded, active, completions } = counts(ctx, job)
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

export function jobStatus(ctx: SimContext, job: KubeObject): Obj {
  const old = statusOf(job)
  if (finished(job)) return old
  const { succeeded, active, completions } = counts(ctx, job)
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
  if (succeeded.length >= completions) {
    let conditions = conditionsOf(job)
    for (const type of ['SuccessCriteriaMet', 'Complete'])
      conditions = setCondition(
        conditions,
        { type, status: 'True', reason: 'CompletionsReached', message: DONE_MESSAGE },
        now,
        { probe: true }
      )
    status.conditions = conditions
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
    if (written && !finished(job) && finished(written))
      await recordEvent(ctx, written, {
        source: SOURCES.job,
        reason: 'Completed',
        message: 'Job completed',
      })
  }
}
