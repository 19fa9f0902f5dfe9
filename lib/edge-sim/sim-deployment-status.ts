/**
 * The Deployment status kube's controller writes, from its ReplicaSets: observedGeneration,
 * replicas, updatedReplicas, readyReplicas, availableReplicas, unavailableReplicas, and the
 * conditions `kubectl rollout status` and `kubectl wait` read — Available (True,
 * MinimumReplicasAvailable, "Deployment has minimum availability." once at least replicas minus
 * maxUnavailable are available) and Progressing (NewReplicaSetCreated, ReplicaSetUpdated, then
 * True/NewReplicaSetAvailable `ReplicaSet "<rs>" has successfully progressed.`; Unknown while
 * paused). Zero counts are left out, as kube's omitempty does.
 */
import { jsonEqual } from '../hub/metadata.ts'
import { timestamp } from '../kube/time.ts'
import type { KubeObject } from '../kube/types.ts'
import { type Condition, conditionsOf, setCondition } from './conditions.ts'
import { hashLabelOf, maxUnavailable } from './deployment-util.ts'
import { podTemplateHash } from './hash.ts'
import { num, type Obj, specOf, statusOf } from './json.ts'
import { ownedBy, type SimContext, updateIn } from './sim-context.ts'

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
  conditions = setCondition(conditions, progressing(d, newRs, complete, createdNow), now, {
    update: true,
  })
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
