/**
 * Descriptors for the remaining `kubectl create` kinds: rbac/v1 Role, ClusterRole, RoleBinding
 * and ClusterRoleBinding; networking/v1 Ingress; policy/v1 PodDisruptionBudget; scheduling/v1
 * PriorityClass; and autoscaling/v1 HorizontalPodAutoscaler (what `kubectl autoscale` sends).
 * Numbers are those of the matching k8s.io/api generated.proto files.
 */

import {
  bool,
  INLINE,
  int32,
  int64,
  intOrString,
  KEEP,
  list,
  map,
  message,
  obj,
  str,
  time,
} from './schema.ts'
import { Condition, LabelSelector, metadata, selector } from './types-meta.ts'

const rbac = (name: string) => `k8s.io.api.rbac.v1.${name}`
const net = (name: string) => `k8s.io.api.networking.v1.${name}`

const PolicyRule = message(rbac('PolicyRule'), [
  list(1, 'verbs', 'string'),
  list(2, 'apiGroups', 'string'),
  list(3, 'resources', 'string'),
  list(4, 'resourceNames', 'string'),
  list(5, 'nonResourceURLs', 'string'),
])

export const Role = message(rbac('Role'), [metadata(), list(2, 'rules', PolicyRule)])

export const ClusterRole = message(rbac('ClusterRole'), [
  metadata(),
  list(2, 'rules', PolicyRule),
  obj(
    3,
    'aggregationRule',
    message(rbac('AggregationRule'), [list(1, 'clusterRoleSelectors', LabelSelector)]),
    KEEP
  ),
])

const Subject = message(rbac('Subject'), [
  str(1, 'kind'),
  str(2, 'apiGroup'),
  str(3, 'name'),
  str(4, 'namespace'),
])

const RoleRef = message(rbac('RoleRef'), [str(1, 'apiGroup'), str(2, 'kind'), str(3, 'name')])

const binding = (kind: string) =>
  message(rbac(kind), [metadata(), list(2, 'subjects', Subject), obj(3, 'roleRef', RoleRef)])

export const RoleBinding = binding('RoleBinding')
export const ClusterRoleBinding = binding('ClusterRoleBinding')

const IngressBackend = message(net('IngressBackend'), [
  obj(
    4,
    'service',
    message(net('IngressServiceBackend'), [
      str(1, 'name'),
      obj(2, 'port', message(net('ServiceBackendPort'), [str(1, 'name'), int32(2, 'number')])),
    ]),
    KEEP
  ),
  obj(
    3,
    'resource',
    message('k8s.io.api.core.v1.TypedLocalObjectReference', [
      str(1, 'apiGroup', KEEP),
      str(2, 'kind'),
      str(3, 'name'),
    ]),
    KEEP
  ),
])

const HTTPIngressPath = message(net('HTTPIngressPath'), [
  str(1, 'path'),
  str(3, 'pathType', KEEP),
  obj(2, 'backend', IngressBackend),
])

const IngressRuleValue = message(net('IngressRuleValue'), [
  obj(1, 'http', message(net('HTTPIngressRuleValue'), [list(1, 'paths', HTTPIngressPath)]), KEEP),
])

const IngressRule = message(net('IngressRule'), [
  str(1, 'host'),
  obj(2, 'ingressRuleValue', IngressRuleValue, INLINE),
])

const IngressTLS = message(net('IngressTLS'), [list(1, 'hosts', 'string'), str(2, 'secretName')])

const IngressSpec = message(net('IngressSpec'), [
  str(4, 'ingressClassName', KEEP),
  obj(1, 'defaultBackend', IngressBackend, KEEP),
  list(2, 'tls', IngressTLS),
  list(3, 'rules', IngressRule),
])

export const Ingress = message(net('Ingress'), [
  metadata(),
  obj(2, 'spec', IngressSpec),
  obj(
    3,
    'status',
    message(net('IngressStatus'), [
      obj(1, 'loadBalancer', message(net('IngressLoadBalancerStatus'), [])),
    ])
  ),
])

const PodDisruptionBudgetSpec = message('k8s.io.api.policy.v1.PodDisruptionBudgetSpec', [
  intOrString(1, 'minAvailable', KEEP),
  selector(2, 'selector'),
  intOrString(3, 'maxUnavailable', KEEP),
  str(4, 'unhealthyPodEvictionPolicy', KEEP),
])

const PodDisruptionBudgetStatus = message('k8s.io.api.policy.v1.PodDisruptionBudgetStatus', [
  int64(1, 'observedGeneration'),
  map(2, 'disruptedPods', 'time'),
  int32(3, 'disruptionsAllowed', KEEP),
  int32(4, 'currentHealthy', KEEP),
  int32(5, 'desiredHealthy', KEEP),
  int32(6, 'expectedPods', KEEP),
  list(7, 'conditions', Condition),
])

export const PodDisruptionBudget = message('k8s.io.api.policy.v1.PodDisruptionBudget', [
  metadata(),
  obj(2, 'spec', PodDisruptionBudgetSpec),
  obj(3, 'status', PodDisruptionBudgetStatus),
])

export const PriorityClass = message('k8s.io.api.scheduling.v1.PriorityClass', [
  metadata(),
  int32(2, 'value', KEEP),
  bool(3, 'globalDefault'),
  str(4, 'description'),
  str(5, 'preemptionPolicy', KEEP),
])

const autoscaling = (name: string) => `k8s.io.api.autoscaling.v1.${name}`

export const HorizontalPodAutoscaler = message(autoscaling('HorizontalPodAutoscaler'), [
  metadata(),
  obj(
    2,
    'spec',
    message(autoscaling('HorizontalPodAutoscalerSpec'), [
      obj(
        1,
        'scaleTargetRef',
        message(autoscaling('CrossVersionObjectReference'), [
          str(1, 'kind'),
          str(2, 'name'),
          str(3, 'apiVersion'),
        ])
      ),
      int32(2, 'minReplicas', KEEP),
      int32(3, 'maxReplicas', KEEP),
      int32(4, 'targetCPUUtilizationPercentage', KEEP),
    ])
  ),
  obj(
    3,
    'status',
    message(autoscaling('HorizontalPodAutoscalerStatus'), [
      int64(1, 'observedGeneration', KEEP),
      time(2, 'lastScaleTime'),
      int32(3, 'currentReplicas', KEEP),
      int32(4, 'desiredReplicas', KEEP),
      int32(5, 'currentCPUUtilizationPercentage', KEEP),
    ])
  ),
])
