/**
 * Descriptors for core/v1 PodTemplateSpec and PodSpec: containers and init containers, the common
 * scheduling and identity fields, tolerations, image pull secrets, the pod securityContext (kube
 * defaults it to `{}`, so kubectl sends it back whenever it copies a pod template) but its Windows
 * and AppArmor options, and the everyday volume sources (emptyDir, hostPath, configMap, secret,
 * persistentVolumeClaim). Affinity, DNS config, topology spread, host aliases, resource claims and
 * other volume sources are not described and get the 415. Numbers are those of
 * k8s.io/api/core/v1/generated.proto.
 */

import {
  bool,
  INLINE,
  int32,
  int64,
  KEEP,
  list,
  map,
  message,
  obj,
  quantity,
  str,
} from './schema.ts'
import { Container, LocalObjectReference, ResourceRequirements } from './types-container.ts'
import { metadata } from './types-meta.ts'

const core = (name: string) => `k8s.io.api.core.v1.${name}`

const KeyToPath = message(core('KeyToPath'), [
  str(1, 'key'),
  str(2, 'path'),
  int32(3, 'mode', KEEP),
])

const VolumeSource = message(core('VolumeSource'), [
  obj(
    1,
    'hostPath',
    message(core('HostPathVolumeSource'), [str(1, 'path'), str(2, 'type', KEEP)]),
    KEEP
  ),
  obj(
    2,
    'emptyDir',
    message(core('EmptyDirVolumeSource'), [str(1, 'medium'), quantity(2, 'sizeLimit', KEEP)]),
    KEEP
  ),
  obj(
    6,
    'secret',
    message(core('SecretVolumeSource'), [
      str(1, 'secretName'),
      list(2, 'items', KeyToPath),
      int32(3, 'defaultMode', KEEP),
      bool(4, 'optional', KEEP),
    ]),
    KEEP
  ),
  obj(
    10,
    'persistentVolumeClaim',
    message(core('PersistentVolumeClaimVolumeSource'), [str(1, 'claimName'), bool(2, 'readOnly')]),
    KEEP
  ),
  obj(
    19,
    'configMap',
    message(core('ConfigMapVolumeSource'), [
      obj(1, 'localObjectReference', LocalObjectReference, INLINE),
      list(2, 'items', KeyToPath),
      int32(3, 'defaultMode', KEEP),
      bool(4, 'optional', KEEP),
    ]),
    KEEP
  ),
])

const Volume = message(core('Volume'), [
  str(1, 'name'),
  obj(2, 'volumeSource', VolumeSource, INLINE),
])

const Toleration = message(core('Toleration'), [
  str(1, 'key'),
  str(2, 'operator'),
  str(3, 'value'),
  str(4, 'effect'),
  int64(5, 'tolerationSeconds', KEEP),
])

const PodSecurityContext = message(core('PodSecurityContext'), [
  obj(
    1,
    'seLinuxOptions',
    message(core('SELinuxOptions'), [
      str(1, 'user'),
      str(2, 'role'),
      str(3, 'type'),
      str(4, 'level'),
    ]),
    KEEP
  ),
  int64(2, 'runAsUser', KEEP),
  int64(6, 'runAsGroup', KEEP),
  bool(3, 'runAsNonRoot', KEEP),
  list(4, 'supplementalGroups', 'int64'),
  str(12, 'supplementalGroupsPolicy', KEEP),
  int64(5, 'fsGroup', KEEP),
  list(7, 'sysctls', message(core('Sysctl'), [str(1, 'name'), str(2, 'value')])),
  str(9, 'fsGroupChangePolicy', KEEP),
  obj(
    10,
    'seccompProfile',
    message(core('SeccompProfile'), [str(1, 'type'), str(2, 'localhostProfile', KEEP)]),
    KEEP
  ),
  str(13, 'seLinuxChangePolicy', KEEP),
])

export const PodSpec = message(core('PodSpec'), [
  list(1, 'volumes', Volume),
  list(20, 'initContainers', Container),
  list(2, 'containers', Container),
  str(3, 'restartPolicy'),
  int64(4, 'terminationGracePeriodSeconds', KEEP),
  int64(5, 'activeDeadlineSeconds', KEEP),
  str(6, 'dnsPolicy'),
  map(7, 'nodeSelector', 'string'),
  str(8, 'serviceAccountName'),
  str(9, 'serviceAccount'),
  bool(21, 'automountServiceAccountToken', KEEP),
  str(10, 'nodeName'),
  bool(11, 'hostNetwork'),
  bool(12, 'hostPID'),
  bool(13, 'hostIPC'),
  bool(27, 'shareProcessNamespace', KEEP),
  obj(14, 'securityContext', PodSecurityContext),
  list(15, 'imagePullSecrets', LocalObjectReference),
  str(16, 'hostname'),
  str(17, 'subdomain'),
  str(19, 'schedulerName'),
  list(22, 'tolerations', Toleration),
  str(24, 'priorityClassName'),
  int32(25, 'priority', KEEP),
  list(28, 'readinessGates', message(core('PodReadinessGate'), [str(1, 'conditionType')])),
  str(29, 'runtimeClassName', KEEP),
  bool(30, 'enableServiceLinks', KEEP),
  str(31, 'preemptionPolicy', KEEP),
  map(32, 'overhead', 'quantity'),
  bool(35, 'setHostnameAsFQDN', KEEP),
  obj(36, 'os', message(core('PodOS'), [str(1, 'name')]), KEEP),
  bool(37, 'hostUsers', KEEP),
  list(38, 'schedulingGates', message(core('PodSchedulingGate'), [str(1, 'name')])),
  obj(40, 'resources', ResourceRequirements, KEEP),
  str(41, 'hostnameOverride', KEEP),
])

export const PodTemplateSpec = message(core('PodTemplateSpec'), [
  metadata(),
  obj(2, 'spec', PodSpec),
])
