/**
 * Status conditions as kube's controllers keep them: a condition is replaced only when its status,
 * reason or message changes; lastTransitionTime moves only when the status flips, lastUpdateTime
 * (Deployments) and lastProbeTime (Jobs) whenever it is rewritten. Also the small status readers
 * the controllers share (is a condition true, is a pod ready and since when).
 */
import type { KubeObject } from '../kube/types.ts'
import { isObj, type Obj, objects, str } from './json.ts'

export type Condition = {
  type: string
  status: 'True' | 'False' | 'Unknown'
  reason?: string
  message?: string
}

/** `conditions` with `c` set; `stamp` names the time fields the kind carries. */
export function setCondition(
  conditions: Obj[],
  c: Condition,
  now: string,
  stamp: { update?: boolean; probe?: boolean } = {}
): Obj[] {
  const i = conditions.findIndex((x) => x.type === c.type)
  const old = i >= 0 ? conditions[i] : undefined
  if (old && old.status === c.status && old.reason === c.reason && old.message === c.message)
    return conditions
  const next: Obj = {
    type: c.type,
    status: c.status,
    ...(stamp.probe ? { lastProbeTime: now } : {}),
    ...(stamp.update ? { lastUpdateTime: now } : {}),
    lastTransitionTime:
      old && old.status === c.status ? (old.lastTransitionTime ?? now) : (now as unknown),
    ...(c.reason !== undefined ? { reason: c.reason } : {}),
    ...(c.message !== undefined ? { message: c.message } : {}),
  }
  const out = [...conditions]
  if (i >= 0) out[i] = next
  else out.push(next)
  return out
}

export function conditionsOf(obj: KubeObject | Obj | undefined): Obj[] {
  return objects(isObj(obj?.status) ? obj.status : undefined, 'conditions')
}

export function hasCondition(obj: KubeObject | Obj | undefined, type: string): boolean {
  return conditionsOf(obj).some((c) => c.type === type && c.status === 'True')
}

export const phaseOf = (pod: KubeObject) => str(pod.status, 'phase', 'Pending')

export const isTerminated = (pod: KubeObject) =>
  ['Succeeded', 'Failed'].includes(phaseOf(pod)) || !!pod.metadata.deletionTimestamp

export const isReady = (pod: KubeObject) => phaseOf(pod) === 'Running' && hasCondition(pod, 'Ready')

/** When the pod's Ready condition last turned True (ms; NaN when unknown). */
export const readySince = (pod: KubeObject) =>
  Date.parse(
    str(
      conditionsOf(pod).find((c) => c.type === 'Ready'),
      'lastTransitionTime'
    )
  )

/** Ready for at least `minReadySeconds` at `now` (ms). */
export function isAvailable(pod: KubeObject, minReadySeconds: number, now: number): boolean {
  if (!isReady(pod)) return false
  if (minReadySeconds <= 0) return true
  const since = readySince(pod)
  return Number.isFinite(since) && since + minReadySeconds * 1000 <= now
}
