/**
 * What a kube cluster's admission plugins add to a bare Pod, on top of kube's declared pod-spec
 * defaults (lib/kube/defaults/pod-defaults.ts): the `default` service account (ServiceAccount),
 * priority 0 and PreemptLowerPriority (Priority), and the not-ready/unreachable tolerations of
 * 300 s (DefaultTolerationSeconds). A simulated edge adds them as a real cluster would; the
 * center runs no pods and adds none.
 */
import { type Obj, setDefault } from './json.ts'

/** The admission additions to a bare Pod's spec, in place. */
export function podAdmissionDefaults(spec: Obj): void {
  setDefault(spec, 'serviceAccountName', 'default')
  setDefault(spec, 'serviceAccount', spec.serviceAccountName)
  setDefault(spec, 'priority', 0)
  setDefault(spec, 'preemptionPolicy', 'PreemptLowerPriority')
  if (!Array.isArray(spec.tolerations))
    spec.tolerations = ['not-ready', 'unreachable'].map((what) => ({
      key: `node.kubernetes.io/${what}`,
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: 300,
    }))
}
