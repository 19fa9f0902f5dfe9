/**
 * The Deployment status kube's controller writes, from its ReplicaSets: observedGeneration,
 * replicas, updatedReplicas, readyReplicas, availableReplicas, unavailableReplicas, and the
 * conditions `kubectl rollout status` and `kubectl wait` read — Available (True,
 * MinimumReplicasAvailable, "Deployment has minimum availability." once at least replicas minus
 * maxUnavailable are available) and Progressing (NewReplicaSetCreated, ReplicaSetUpdated, then
 * True/NewReplicaSetAvailable `ReplicaSet "<rs>" has successfully progressed.`; Unknown while
 * paused; False/ProgressDeadlineExceeded `ReplicaSet "<rs>" has timed out progressing.` once a
 * rollout has made no progress — more updated, ready or available replicas, fewer old ones — for
 * `spec.progressDeadlineSeconds` since the condition's lastUpdateTime, which progress renews, as
 * kube's deployment controller does; the pass is woken at that deadline). Zero counts are left out,
 * as kube's omitempty does.
 */
import { jsonEqual } from '../hub/metadata.ts'
import { timestamp } from '../kube/time.ts'
import type { KubeObject } from '../kube/types.ts'
import { type Condition, conditionsOf, setCondition } from './conditions.ts'
import { hashLabelOf, maxUnavailable } from './deployment-util.ts'
import { podTemplateHash } from './hash.ts'
import { num, type Obj, specOf, statusOf } from './json.ts'
import { ownedBy, type SimContext, updateIn, wakeAt } from './sim-context.ts'

function progressing(
  d: KubeObject,
  rs: KubeObject | undefined,
  complete: boolean,
  createdNow: boolean
): Condition {
  const name = rs?.metadata.name ?? ''
  if (specOf(d).paused === true)
    return {
      type: 'Progressing',
      status: 'Unknown',
      reason: 'DeploymentPaused',
      message: 'Deployment is paused',
    }
  if (complete)
    return {
      type: 'Progressing',
      status: 'True',
      reason: 'NewReplicaSetAvailable',
      message: `ReplicaSet "${name}" has successfully progressed.`,
    }
  if (createdNow)
    return {
      type: 'Progressing',
      status: 'True',
      reason: 'NewReplicaSetCreated',
      message: `Created new replica set "${name}"`,
    }
  return {
    type: 'Progressing',
    status: 'True',
    reason: 'ReplicaSetUpdated',
    message: `ReplicaSet "${name}" is progressing.`,
  }
}

/**
 * kube's "progress": more updated, ready or available replicas than the status last said, or
 * fewer old ones. Progress renews the Progressing condition's lastUpdateTime, which its deadline
 * counts from.
 */
function madeProgress(old: Obj, counts: Obj): boolean {
  const n = (o: Obj, f: string) => num(o, f, 0)
  const oldOnes = (o: Obj) => n(o, 'replicas') - n(o, 'updatedReplicas')
  return (
    n(counts, 'updatedReplicas') > n(old, 'updatedReplicas') ||
    n(counts, 'readyReplicas') > n(old, 'readyReplicas') ||
    n(counts, 'availableReplicas') > n(old, 'availableReplicas') ||
    oldOnes(counts) < oldOnes(old)
  )
}

/** When a rollout that makes no progress times out (ms); undefined without a deadline. */
function deadlineOf(d: KubeObject, progressing: Obj | undefined): number | undefined {
  const seconds = specOf(d).progressDeadlineSeconds
  const since = Date.parse(String(progressing?.lastUpdateTime ?? ''))
  if (typeof seconds !== 'number' || !Number.isFinite(since)) return undefined
  return since + seconds * 1000
}

const timedOutCondition = (rs: KubeObject | undefined): Condition => ({
  type: 'Progressing',
  status: 'False',
  reason: 'ProgressDeadlineExceeded',
  message: `ReplicaSet "${rs?.metadata.name ?? ''}" has timed out progressing.`,
})

/** The Progressing condition with its lastUpdateTime at `now` (progress was made). */
const touched = (conditions: Obj[], now: string): Obj[] =>
  conditions.map((c) =>
    c.type === 'Progressing' && c.status === 'True' ? { ...c, lastUpdateTime: now } : c
  )

export function deploymentStatus(ctx: SimContext, d: KubeObject, createdNow: boolean): Obj {
  const all = ownedBy(ctx, 'replicasets', d.metadata.uid)
  const hash = podTemplateHash(specOf(d).template)
  const newRs = all.find((rs) => hashLabelOf(rs) === hash)
  const sum = (f: (rs: KubeObject) => number) => all.reduce((acc, rs) => acc + f(rs), 0)
  const desired = num(d.spec, 'replicas', 1)
  const replicas = sum((rs) => num(rs.status, 'replicas', 0))
  const updated = newRs ? num(newRs.status, 'replicas', 0) : 0
  const available = sum((rs) => num(rs.status, 'availableReplicas', 0))
  const counts: Obj = {
    replicas,
    updatedReplicas: updated,
    readyReplicas: sum((rs) => num(rs.status, 'readyReplicas', 0)),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, sum((rs) => num(rs.spec, 'replicas', 1)) - available),
  }
  const now = timestamp(ctx.now())
  const minimum = available >= desired - maxUnavailable(d)
  let conditions = setCondition(
    conditionsOf(d),
    minimum
      ? {
          type: 'Available',
          status: 'True',
          reason: 'MinimumReplicasAvailable',
          message: 'Deployment has minimum availability.',
        }
      : {
          type: 'Available',
          status: 'False',
          reason: 'MinimumReplicasUnavailable',
          message: 'Deployment does not have minimum availability.',
        },
    now,
    { update: true }
  )
  const complete = !!newRs && updated === desired && replicas === desired && available === desired
  const wanted = progressing(d, newRs, complete, createdNow)
  const progressed = madeProgress(statusOf(d), counts)
  const stuck = !complete && !createdNow && !progressed && wanted.status === 'True'
  const before = conditionsOf(d).find((c) => c.type === 'Progressing')
  // Once timed out it stays so until progress is made again (or a new rollout starts).
  const already = before?.reason === 'ProgressDeadlineExceeded'
  const due = stuck && !already ? deadlineOf(d, before) : undefined
  const timedOut = stuck && (already || (due !== undefined && due <= ctx.now().getTime()))
  conditions = setCondition(conditions, timedOut ? timedOutCondition(newRs) : wanted, now, {
    update: true,
  })
  if (progressed && !complete) conditions = touched(conditions, now)
  if (due !== undefined && !timedOut) wakeAt(ctx, due)
  const old = statusOf(d)
  return {
    observedGeneration: d.metadata.generation ?? 1,
    ...Object.fromEntries(Object.entries(counts).filter(([, v]) => v !== 0)),
    conditions,
    ...(old.collisionCount !== undefined ? { collisionCount: old.collisionCount } : {}),
  }
}

export async function deploymentStatuses(ctx: SimContext, createdNow: Set<string>): Promise<void> {
  for (const d of [...ctx.snap.deployments]) {
    if (d.metadata.deletionTimestamp) continue
    const status = deploymentStatus(ctx, d, createdNow.has(d.metadata.uid ?? ''))
    if (!jsonEqual(status, d.status ?? {}))
      await updateIn(ctx, 'deployments', { ...d, status: status as never }, { status: true })
  }
}
