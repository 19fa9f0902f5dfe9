/**
 * Descriptors for the core/v1 kinds `kubectl create` generates: Namespace, ConfigMap, Secret,
 * ServiceAccount, Service and ResourceQuota, with the nested types they use. Statuses are
 * described only as far as an empty or generator-made object goes. Numbers are those of
 * k8s.io/api/core/v1/generated.proto.
 */

import { bool, int32, intOrString, KEEP, list, map, message, obj, str } from './schema.ts'
import { LocalObjectReference } from './types-container.ts'
import { metadata } from './types-meta.ts'

const core = (name: string) => `k8s.io.api.core.v1.${name}`

export const Namespace = message(core('Namespace'), [
  metadata(),
  obj(2, 'spec', message(core('NamespaceSpec'), [list(1, 'finalizers', 'string')])),
  obj(3, 'status', message(core('NamespaceStatus'), [str(1, 'phase')])),
])

export const ConfigMap = message(core('ConfigMap'), [
  metadata(),
  bool(4, 'immutable', KEEP),
  map(2, 'data', 'string'),
  map(3, 'binaryData', 'bytes'),
])

export const Secret = message(core('Secret'), [
  metadata(),
  bool(5, 'immutable', KEEP),
  map(2, 'data', 'bytes'),
  map(4, 'stringData', 'string'),
  str(3, 'type'),
])

export const ObjectReference = message(core('ObjectReference'), [
  str(1, 'kind'),
  str(2, 'namespace'),
  str(3, 'name'),
  str(4, 'uid'),
  str(5, 'apiVersion'),
  str(6, 'resourceVersion'),
  str(7, 'fieldPath'),
])

export const ServiceAccount = message(core('ServiceAccount'), [
  metadata(),
  list(2, 'secrets', ObjectReference),
  list(3, 'imagePullSecrets', LocalObjectReference),
  bool(4, 'automountServiceAccountToken', KEEP),
])

const ServicePort = message(core('ServicePort'), [
  str(1, 'name'),
  str(2, 'protocol'),
  str(6, 'appProtocol', KEEP),
  int32(3, 'port'),
  intOrString(4, 'targetPort'),
  int32(5, 'nodePort'),
])

const SessionAffinityConfig = message(core('SessionAffinityConfig'), [
  obj(1, 'clientIP', message(core('ClientIPConfig'), [int32(1, 'timeoutSeconds', KEEP)]), KEEP),
])

const ServiceSpec = message(core('ServiceSpec'), [
  list(1, 'ports', ServicePort),
  map(2, 'selector', 'string'),
  str(3, 'clusterIP'),
  list(18, 'clusterIPs', 'string'),
  str(4, 'type'),
  list(5, 'externalIPs', 'string'),
  str(7, 'sessionAffinity'),
  str(8, 'loadBalancerIP'),
  list(9, 'loadBalancerSourceRanges', 'string'),
  str(10, 'externalName'),
  str(11, 'externalTrafficPolicy'),
  int32(12, 'healthCheckNodePort'),
  bool(13, 'publishNotReadyAddresses'),
  obj(14, 'sessionAffinityConfig', SessionAffinityConfig, KEEP),
  list(19, 'ipFamilies', 'string'),
  str(17, 'ipFamilyPolicy', KEEP),
  bool(20, 'allocateLoadBalancerNodePorts', KEEP),
  str(21, 'loadBalancerClass', KEEP),
  str(22, 'internalTrafficPolicy', KEEP),
  str(23, 'trafficDistribution', KEEP),
])

const ServiceStatus = message(core('ServiceStatus'), [
  obj(1, 'loadBalancer', message(core('LoadBalancerStatus'), [])),
])

export const Service = message(core('Service'), [
  metadata(),
  obj(2, 'spec', ServiceSpec),
  obj(3, 'status', ServiceStatus),
])

const ScopedResourceSelectorRequirement = message(core('ScopedResourceSelectorRequirement'), [
  str(1, 'scopeName'),
  str(2, 'operator'),
  list(3, 'values', 'string'),
])

const ResourceQuotaSpec = message(core('ResourceQuotaSpec'), [
  map(1, 'hard', 'quantity'),
  list(2, 'scopes', 'string'),
  obj(
    3,
    'scopeSelector',
    message(core('ScopeSelector'), [
      list(1, 'matchExpressions', ScopedResourceSelectorRequirement),
    ]),
    KEEP
  ),
])

export const ResourceQuota = message(core('ResourceQuota'), [
  metadata(),
  obj(2, 'spec', ResourceQuotaSpec),
  obj(
    3,
    'status',
    message(core('ResourceQuotaStatus'), [map(1, 'hard', 'quantity'), map(2, 'used', 'quantity')])
  ),
])
