/**
 * kube's defaults for the workload kinds, in place on the object's JSON: Deployment (replicas 1,
 * RollingUpdate 25%/25%, revisionHistoryLimit 10, progressDeadlineSeconds 600), ReplicaSet
 * (replicas 1), StatefulSet (replicas 1, OrderedReady, RollingUpdate partition 0, history 10,
 * Retain PVCs), DaemonSet (RollingUpdate maxUnavailable 1 / maxSurge 0, history 10), Job
 * (parallelism and completions 1, backoffLimit 6, NonIndexed, not suspended, and the generated
 * controller-uid selector and template labels unless manualSelector), CronJob (Allow, history 3/1);
 * each with its pod template defaulted. A Secret gets type Opaque.
 */
import type { KubeObject } from '../kube/types.ts'
import { templateDefaults } from './defaults-pod.ts'
import { child, isObj, type Obj, setDefault } from './json.ts'

export function deploymentDefaults(spec: Obj): void {
  setDefault(spec, 'replicas', 1)
  const strategy = child(spec, 'strategy')
  setDefault(strategy, 'type', 'RollingUpdate')
  if (strategy.type === 'RollingUpdate') {
    const rolling = child(strategy, 'rollingUpdate')
    setDefault(rolling, 'maxUnavailable', '25%')
    setDefault(rolling, 'maxSurge', '25%')
  }
  setDefault(spec, 'revisionHistoryLimit', 10)
  setDefault(spec, 'progressDeadlineSeconds', 600)
  templateDefaults(spec)
}

export function replicaSetDefaults(spec: Obj): void {
  setDefault(spec, 'replicas', 1)
  templateDefaults(spec)
}

export function statefulSetDefaults(spec: Obj): void {
  setDefault(spec, 'replicas', 1)
  setDefault(spec, 'podManagementPolicy', 'OrderedReady')
  const strategy = child(spec, 'updateStrategy')
  setDefault(strategy, 'type', 'RollingUpdate')
  if (strategy.type === 'RollingUpdate')
    setDefault(child(strategy, 'rollingUpdate'), 'partition', 0)
  setDefault(spec, 'revisionHistoryLimit', 10)
  const retention = child(spec, 'persistentVolumeClaimRetentionPolicy')
  setDefault(retention, 'whenDeleted', 'Retain')
  setDefault(retention, 'whenScaled', 'Retain')
  templateDefaults(spec)
}

export function daemonSetDefaults(spec: Obj): void {
  const strategy = child(spec, 'updateStrategy')
  setDefault(strategy, 'type', 'RollingUpdate')
  if (strategy.type === 'RollingUpdate') {
    const rolling = child(strategy, 'rollingUpdate')
    setDefault(rolling, 'maxUnavailable', 1)
    setDefault(rolling, 'maxSurge', 0)
  }
  setDefault(spec, 'revisionHistoryLimit', 10)
  templateDefaults(spec)
}

/** Labels kube puts on a Job's pods (and selects them by) when the selector is generated. */
export function jobSelectorLabels(uid: string, name: string): Record<string, string> {
  return {
    'batch.kubernetes.io/controller-uid': uid,
    'batch.kubernetes.io/job-name': name,
    'controller-uid': uid,
    'job-name': name,
  }
}

/** Job defaults; `uid` and `name` are the Job's (for the generated selector). */
export function jobDefaults(spec: Obj, job: { uid: string; name: string }): void {
  if (spec.completions === undefined && spec.parallelism === undefined) spec.completions = 1
  setDefault(spec, 'parallelism', 1)
  setDefault(spec, 'backoffLimit', 6)
  setDefault(spec, 'completionMode', 'NonIndexed')
  setDefault(spec, 'suspend', false)
  if (spec.podFailurePolicy === undefined)
    setDefault(spec, 'podReplacementPolicy', 'TerminatingOrFailed')
  templateDefaults(spec)
  if (spec.manualSelector === true || !job.uid) return
  const labels = jobSelectorLabels(job.uid, job.name)
  if (!isObj(spec.selector))
    spec.selector = { matchLabels: { 'batch.kubernetes.io/controller-uid': job.uid } }
  if (isObj(spec.template)) {
    const meta = child(spec.template, 'metadata')
    meta.labels = { ...labels, ...(isObj(meta.labels) ? meta.labels : {}) }
  }
}

export function cronJobDefaults(spec: Obj): void {
  setDefault(spec, 'concurrencyPolicy', 'Allow')
  setDefault(spec, 'suspend', false)
  setDefault(spec, 'successfulJobsHistoryLimit', 3)
  setDefault(spec, 'failedJobsHistoryLimit', 1)
  const jobSpec = child(child(spec, 'jobTemplate'), 'spec')
  templateDefaults(jobSpec)
}

export function secretDefaults(obj: KubeObject): void {
  if (obj.type === undefined || obj.type === '') obj.type = 'Opaque'
}
