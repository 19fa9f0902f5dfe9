/**
 * kube's defaults for a pod spec (SetDefaults_PodSpec, _Container, _Probe, _Volume), used for
 * Pods and for the pod templates of every workload kind: restartPolicy Always, dnsPolicy
 * ClusterFirst, terminationGracePeriodSeconds 30, schedulerName default-scheduler, an empty
 * securityContext; each container's imagePullPolicy (Always for `:latest` or no tag, else
 * IfNotPresent), termination message path and policy, `resources: {}`, port protocol TCP and probe
 * timings; volume defaultMode 420. A bare Pod also gets what admission adds: the `default`
 * service account, priority 0 and the not-ready/unreachable tolerations.
 */
import { child, isObj, type Obj, objects, setDefault } from './json.ts'

/** kube's rule: a digest pins the image; `:latest` or no tag is pulled every time. */
export function imagePullPolicyFor(image: string): 'Always' | 'IfNotPresent' {
  if (image.includes('@')) return 'IfNotPresent'
  const lastPart = image.slice(image.lastIndexOf('/') + 1)
  const colon = lastPart.indexOf(':')
  if (colon < 0) return 'Always'
  return lastPart.slice(colon + 1) === 'latest' ? 'Always' : 'IfNotPresent'
}

function probeDefaults(probe: unknown): void {
  if (!isObj(probe)) return
  setDefault(probe, 'timeoutSeconds', 1)
  setDefault(probe, 'periodSeconds', 10)
  setDefault(probe, 'successThreshold', 1)
  setDefault(probe, 'failureThreshold', 3)
  const http = probe.httpGet
  if (isObj(http)) setDefault(http, 'scheme', 'HTTP')
}

function containerDefaults(c: Obj): void {
  if (typeof c.image === 'string') setDefault(c, 'imagePullPolicy', imagePullPolicyFor(c.image))
  setDefault(c, 'terminationMessagePath', '/dev/termination-log')
  setDefault(c, 'terminationMessagePolicy', 'File')
  if (!isObj(c.resources)) c.resources = {}
  for (const port of objects(c, 'ports')) setDefault(port, 'protocol', 'TCP')
  for (const key of ['livenessProbe', 'readinessProbe', 'startupProbe']) probeDefaults(c[key])
}

const MODE_0644 = 420

function volumeDefaults(v: Obj): void {
  for (const source of ['configMap', 'secret', 'projected', 'downwardAPI']) {
    const s = v[source]
    if (isObj(s)) setDefault(s, 'defaultMode', MODE_0644)
  }
}

/** Defaults of a pod spec, in place. `pod`: a bare Pod (admission defaults too). */
export function podSpecDefaults(spec: Obj, pod: boolean): void {
  setDefault(spec, 'restartPolicy', 'Always')
  setDefault(spec, 'dnsPolicy', 'ClusterFirst')
  setDefault(spec, 'terminationGracePeriodSeconds', 30)
  setDefault(spec, 'schedulerName', 'default-scheduler')
  if (!isObj(spec.securityContext)) spec.securityContext = {}
  for (const c of [...objects(spec, 'containers'), ...objects(spec, 'initContainers')])
    containerDefaults(c)
  for (const v of objects(spec, 'volumes')) volumeDefaults(v)
  if (!pod) return
  setDefault(spec, 'serviceAccountName', 'default')
  setDefault(spec, 'serviceAccount', spec.serviceAccountName)
  setDefault(spec, 'priority', 0)
  setDefault(spec, 'enableServiceLinks', true)
  setDefault(spec, 'preemptionPolicy', 'PreemptLowerPriority')
  if (!Array.isArray(spec.tolerations))
    spec.tolerations = ['not-ready', 'unreachable'].map((what) => ({
      key: `node.kubernetes.io/${what}`,
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: 300,
    }))
}

/** Defaults of `parent.template` (a pod template), in place; absent templates are left alone. */
export function templateDefaults(parent: Obj): void {
  const template = parent.template
  if (!isObj(template)) return
  podSpecDefaults(child(template, 'spec'), false)
}
