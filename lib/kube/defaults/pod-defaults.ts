/**
 * kube's declared defaults of a pod spec (k8s.io/kubernetes pkg/apis/core/v1 defaults.go:
 * SetDefaults_PodSpec, _Container, _Probe, _HTTPGetAction, _ObjectFieldSelector and the volume
 * sources' defaultMode, plus the `+default` markers of ContainerPort): restartPolicy Always,
 * dnsPolicy ClusterFirst, an empty securityContext, terminationGracePeriodSeconds 30,
 * schedulerName default-scheduler; per container imagePullPolicy (Always for `:latest` or no
 * tag, else IfNotPresent), terminationMessagePath and policy, `resources: {}` (kube always
 * prints it), port protocol TCP, probe timings and an httpGet probe's path and scheme, an env
 * fieldRef's apiVersion v1; volume defaultMode 420. A bare Pod also gets enableServiceLinks true
 * (SetDefaults_Pod). What admission plugins add (service account, priority, tolerations) is not a
 * default: a simulated edge adds it itself (lib/edge-sim/defaults-pod.ts).
 */
import {
  constant,
  type DefaultRule,
  emptyObject,
  items,
  itemsOf,
  member,
  type Scope,
} from './scopes.ts'

/** kube's rule: `:latest` or no tag (which means latest) is pulled every time; a digest pins. */
export function imagePullPolicyFor(image: string): 'Always' | 'IfNotPresent' {
  if (image.includes('@')) return 'IfNotPresent'
  const lastPart = image.slice(image.lastIndexOf('/') + 1)
  const colon = lastPart.indexOf(':')
  if (colon < 0) return 'Always'
  return lastPart.slice(colon + 1) === 'latest' ? 'Always' : 'IfNotPresent'
}

const timing = (key: string, value: number): DefaultRule => ({
  key,
  value: () => value,
  zeroUnset: true,
})

const probe = (key: string): Scope => ({
  nodes: member(key),
  rules: [
    timing('timeoutSeconds', 1),
    timing('periodSeconds', 10),
    timing('successThreshold', 1),
    timing('failureThreshold', 3),
  ],
  inner: [{ nodes: member('httpGet'), rules: [constant('path', '/'), constant('scheme', 'HTTP')] }],
})

const fieldRefs: Scope = {
  nodes: items('env'),
  rules: [],
  inner: [
    {
      nodes: member('valueFrom'),
      rules: [],
      inner: [{ nodes: member('fieldRef'), rules: [constant('apiVersion', 'v1')] }],
    },
  ],
}

const containers: Scope = {
  nodes: itemsOf('containers', 'initContainers', 'ephemeralContainers'),
  rules: [
    {
      key: 'imagePullPolicy',
      value: (c) => (typeof c.image === 'string' ? imagePullPolicyFor(c.image) : undefined),
    },
    constant('terminationMessagePath', '/dev/termination-log'),
    constant('terminationMessagePolicy', 'File'),
    emptyObject('resources'),
  ],
  inner: [
    { nodes: items('ports'), rules: [constant('protocol', 'TCP')] },
    probe('livenessProbe'),
    probe('readinessProbe'),
    probe('startupProbe'),
    fieldRefs,
  ],
}

const MODE_0644 = 420

const volumes: Scope = {
  nodes: items('volumes'),
  rules: [],
  inner: ['configMap', 'secret', 'downwardAPI', 'projected'].map((source) => ({
    nodes: member(source),
    rules: [constant('defaultMode', MODE_0644)],
  })),
}

const POD_SPEC_RULES: readonly DefaultRule[] = [
  constant('dnsPolicy', 'ClusterFirst'),
  constant('restartPolicy', 'Always'),
  emptyObject('securityContext'),
  constant('terminationGracePeriodSeconds', 30),
  constant('schedulerName', 'default-scheduler'),
]

/** The pod spec at `parent.spec` of a Pod. */
export const POD_SPEC: Scope = {
  nodes: member('spec'),
  rules: [...POD_SPEC_RULES, constant('enableServiceLinks', true)],
  inner: [containers, volumes],
}

/** The pod template at `parent.template` (of a workload's spec): its spec, without Pod-only rules. */
export const POD_TEMPLATE: Scope = {
  nodes: member('template'),
  rules: [],
  inner: [{ nodes: member('spec'), rules: POD_SPEC_RULES, inner: [containers, volumes] }],
}
