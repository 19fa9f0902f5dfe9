/**
 * A Job's generated selector, as kube's Job strategy makes it at create (not a default: it is
 * made of the Job's own uid, so it differs at every cluster): unless `manualSelector`, the pods
 * are labelled with the Job's uid and name and selected by the uid. kube's declared workload
 * defaults are lib/kube/defaults/workload-defaults.ts.
 */
import { child, isObj, type Obj } from './json.ts'

/** Labels kube puts on a Job's pods (and selects them by) when the selector is generated. */
export function jobSelectorLabels(uid: string, name: string): Record<string, string> {
  return {
    'batch.kubernetes.io/controller-uid': uid,
    'batch.kubernetes.io/job-name': name,
    'controller-uid': uid,
    'job-name': name,
  }
}

/** The generated selector and pod labels of a Job's spec, in place; `uid` and `name` the Job's. */
export function jobSelector(spec: Obj, job: { uid: string; name: string }): void {
  if (spec.manualSelector === true || !job.uid) return
  const labels = jobSelectorLabels(job.uid, job.name)
  if (!isObj(spec.selector))
    spec.selector = { matchLabels: { 'batch.kubernetes.io/controller-uid': job.uid } }
  if (isObj(spec.template)) {
    const meta = child(spec.template, 'metadata')
    meta.labels = { ...labels, ...(isObj(meta.labels) ? meta.labels : {}) }
  }
}
