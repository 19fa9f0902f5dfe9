/**
 * Descriptors for core/v1 Container and what it holds: ports, env and envFrom (with their
 * ConfigMap/Secret/field/resource selectors), resources, resize policy, volume mounts and devices,
 * probes (exec, httpGet, tcpSocket, grpc: a center object carries kube's probe defaults, which
 * kubectl sends back when it copies one, as `kubectl create job --from=cronjob/...` does).
 * Lifecycle hooks and securityContext are not described, so a body carrying them gets the 415
 * that points to `kubectl apply -f`. Numbers are those of k8s.io/api/core/v1/generated.proto.
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
  quantity,
  str,
} from './schema.ts'

const core = (name: string) => `k8s.io.api.core.v1.${name}`

export const LocalObjectReference = message(core('LocalObjectReference'), [str(1, 'name')])

export const ContainerPort = message(core('ContainerPort'), [
  str(1, 'name'),
  int32(2, 'hostPort'),
  int32(3, 'containerPort'),
  str(4, 'protocol'),
  str(5, 'hostIP'),
])

const ObjectFieldSelector = message(core('ObjectFieldSelector'), [
  str(1, 'apiVersion'),
  str(2, 'fieldPath'),
])

const ResourceFieldSelector = message(core('ResourceFieldSelector'), [
  str(1, 'containerName'),
  str(2, 'resource'),
  quantity(3, 'divisor'),
])

const keySelector = (name: string) =>
  message(core(name), [
    obj(1, 'localObjectReference', LocalObjectReference, INLINE),
    str(2, 'key'),
    bool(3, 'optional', KEEP),
  ])

const EnvVarSource = message(core('EnvVarSource'), [
  obj(1, 'fieldRef', ObjectFieldSelector, KEEP),
  obj(2, 'resourceFieldRef', ResourceFieldSelector, KEEP),
  obj(3, 'configMapKeyRef', keySelector('ConfigMapKeySelector'), KEEP),
  obj(4, 'secretKeyRef', keySelector('SecretKeySelector'), KEEP),
])

const EnvVar = message(core('EnvVar'), [
  str(1, 'name'),
  str(2, 'value'),
  obj(3, 'valueFrom', EnvVarSource, KEEP),
])

const envSource = (name: string) =>
  message(core(name), [
    obj(1, 'localObjectReference', LocalObjectReference, INLINE),
    bool(2, 'optional', KEEP),
  ])

const EnvFromSource = message(core('EnvFromSource'), [
  str(1, 'prefix'),
  obj(2, 'configMapRef', envSource('ConfigMapEnvSource'), KEEP),
  obj(3, 'secretRef', envSource('SecretEnvSource'), KEEP),
])

const ResourceClaim = message(core('ResourceClaim'), [str(1, 'name'), str(2, 'request')])

export const ResourceRequirements = message(core('ResourceRequirements'), [
  map(1, 'limits', 'quantity'),
  map(2, 'requests', 'quantity'),
  list(3, 'claims', ResourceClaim),
])

const ContainerResizePolicy = message(core('ContainerResizePolicy'), [
  str(1, 'resourceName'),
  str(2, 'restartPolicy'),
])

const VolumeMount = message(core('VolumeMount'), [
  str(1, 'name'),
  bool(2, 'readOnly'),
  str(7, 'recursiveReadOnly', KEEP),
  str(3, 'mountPath'),
  str(4, 'subPath'),
  str(5, 'mountPropagation', KEEP),
  str(6, 'subPathExpr'),
])

const HTTPGetAction = message(core('HTTPGetAction'), [
  str(1, 'path'),
  intOrString(2, 'port'),
  str(3, 'host'),
  str(4, 'scheme'),
  list(5, 'httpHeaders', message(core('HTTPHeader'), [str(1, 'name'), str(2, 'value')])),
])

const ProbeHandler = message(core('ProbeHandler'), [
  obj(1, 'exec', message(core('ExecAction'), [list(1, 'command', 'string')]), KEEP),
  obj(2, 'httpGet', HTTPGetAction, KEEP),
  obj(
    3,
    'tcpSocket',
    message(core('TCPSocketAction'), [intOrString(1, 'port'), str(2, 'host')]),
    KEEP
  ),
  obj(4, 'grpc', message(core('GRPCAction'), [int32(1, 'port'), str(2, 'service', KEEP)]), KEEP),
])

const Probe = message(core('Probe'), [
  obj(1, 'handler', ProbeHandler, INLINE),
  int32(2, 'initialDelaySeconds'),
  int32(3, 'timeoutSeconds'),
  int32(4, 'periodSeconds'),
  int32(5, 'successThreshold'),
  int32(6, 'failureThreshold'),
  int64(7, 'terminationGracePeriodSeconds', KEEP),
])

const VolumeDevice = message(core('VolumeDevice'), [str(1, 'name'), str(2, 'devicePath')])

export const Container = message(core('Container'), [
  str(1, 'name'),
  str(2, 'image'),
  list(3, 'command', 'string'),
  list(4, 'args', 'string'),
  str(5, 'workingDir'),
  list(6, 'ports', ContainerPort),
  list(19, 'envFrom', EnvFromSource),
  list(7, 'env', EnvVar),
  obj(8, 'resources', ResourceRequirements),
  list(23, 'resizePolicy', ContainerResizePolicy),
  str(24, 'restartPolicy', KEEP),
  list(9, 'volumeMounts', VolumeMount),
  list(21, 'volumeDevices', VolumeDevice),
  obj(10, 'livenessProbe', Probe, KEEP),
  obj(11, 'readinessProbe', Probe, KEEP),
  obj(22, 'startupProbe', Probe, KEEP),
  str(13, 'terminationMessagePath'),
  str(20, 'terminationMessagePolicy'),
  str(14, 'imagePullPolicy'),
  bool(16, 'stdin'),
  bool(17, 'stdinOnce'),
  bool(18, 'tty'),
])
