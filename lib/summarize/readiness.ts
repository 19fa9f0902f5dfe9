/**
 * Kind-specific readiness of a copy from what its edge reported, given the copy's body (for the
 * desired replica count, which a customization may change per destination) and the reported
 * `.status`. Deployment: `availableReplicas` and `updatedReplicas` equal `spec.replicas` (default
 * 1; absent counts as 0) and no old replica is left (`status.replicas` not above it, as kubectl
 * rollout status waits for "old replicas pending termination"), failed when its Progressing condition says ProgressDeadlineExceeded.
 * ReplicaSet and StatefulSet: `readyReplicas` equals `spec.replicas`. DaemonSet: `numberReady`
 * equals `desiredNumberScheduled`. Job: a Complete condition True is ready, a Failed condition
 * True is failed. Pod: a Ready condition True is ready; phase Failed, or a container waiting
 * in a state the kubelet does not leave on its own (CrashLoopBackOff, ImagePullBackOff,
 * ErrImagePull, InvalidImageName, CreateContainer(Config)Error), is failed with that reason. Every other kind
 * is ready once applied (a ConfigMap has nothing more to become). Pure.
 */
import type { JsonObject, JsonValue, KubeObject } from '../kube/types.ts'
import { isJsonObject } from '../patch/json-values.ts'

export type Readiness =
  | { kind: 'ready' }
  | { kind: 'not-ready'; message: string }
  | { kind: 'failed'; reason: string; message: string }

const READY: Readiness = { kind: 'ready' }

const obj = (v: JsonValue | undefined): JsonObject => (isJsonObject(v) ? v : {})
const num = (v: JsonValue | undefined, fallback = 0): number =>
  typeof v === 'number' && Number.isFinite(v) ? v : fallback

function condition(status: JsonObject, type: string): JsonObject | undefined {
  const list = Array.isArray(status.conditions) ? status.conditions : []
  return list.filter(isJsonObject).find((c) => c.type === type)
}

const isTrue = (status: JsonObject, type: string) => condition(status, type)?.status === 'True'

function replicas(want: number, have: number, what: string): Readiness {
  return have === want ? READY : { kind: 'not-ready', message: `${what} ${have}/${want}` }
}

function deployment(spec: JsonObject, status: JsonObject): Readiness {
  const progressing = condition(status, 'Progressing')
  if (progressing?.status === 'False' && progressing.reason === 'ProgressDeadlineExceeded') {
    const message = typeof progressing.message === 'string' ? progressing.message : ''
    return { kind: 'failed', reason: 'ProgressDeadlineExceeded', message }
  }
  const want = num(spec.replicas, 1)
  const updated = replicas(want, num(status.updatedReplicas), 'updated replicas')
  if (updated.kind !== 'ready') return updated
  // As kubectl rollout status: old replicas still running are a rollout not done, even when the
  // updated ones' count is reached (a new pod that cannot start leaves the old one serving).
  const total = num(status.replicas, want)
  if (total > want)
    return { kind: 'not-ready', message: `${total - want} old replicas pending termination` }
  return replicas(want, num(status.availableReplicas), 'available replicas')
}

function job(status: JsonObject): Readiness {
  if (isTrue(status, 'Failed')) {
    const message = condition(status, 'Failed')?.message
    return {
      kind: 'failed',
      reason: 'JobFailed',
      message: typeof message === 'string' ? message : '',
    }
  }
  return isTrue(status, 'Complete') ? READY : { kind: 'not-ready', message: 'not complete' }
}

/** The kubelet's waiting reasons that do not pass on their own (a pod stuck so is failed). */
const STUCK = [
  'CrashLoopBackOff',
  'ImagePullBackOff',
  'ErrImagePull',
  'InvalidImageName',
  'CreateContainerConfigError',
  'CreateContainerError',
]

function stuckContainer(status: JsonObject): Readiness | undefined {
  const lists = [status.initContainerStatuses, status.containerStatuses]
  for (const c of lists.flatMap((l) => (Array.isArray(l) ? l.filter(isJsonObject) : []))) {
    const waiting = obj(obj(c.state).waiting)
    const reason = typeof waiting.reason === 'string' ? waiting.reason : ''
    if (!STUCK.includes(reason)) continue
    const message = typeof waiting.message === 'string' ? waiting.message : ''
    return { kind: 'failed', reason, message: `container ${String(c.name ?? '')}: ${message}` }
  }
  return undefined
}

function pod(status: JsonObject): Readiness {
  if (status.phase === 'Failed') {
    const message = typeof status.message === 'string' ? status.message : 'pod failed'
    return { kind: 'failed', reason: 'PodFailed', message }
  }
  const stuck = stuckContainer(status)
  if (stuck) return stuck
  return isTrue(status, 'Ready') ? READY : { kind: 'not-ready', message: 'pod not ready' }
}

/** Readiness of a copy of `kind` with `body` (its spec) and the reported `status`. */
export function readinessOf(
  kind: string,
  body: KubeObject | undefined,
  reported: JsonValue | undefined
): Readiness {
  const spec = obj(body?.spec as JsonValue | undefined)
  const status = obj(reported)
  switch (kind) {
    case 'Deployment':
      return deployment(spec, status)
    case 'ReplicaSet':
    case 'StatefulSet':
      return replicas(num(spec.replicas, 1), num(status.readyReplicas), 'ready replicas')
    case 'DaemonSet':
      return replicas(num(status.desiredNumberScheduled), num(status.numberReady), 'ready pods')
    case 'Job':
      return job(status)
    case 'Pod':
      return pod(status)
    default:
      return READY
  }
}
