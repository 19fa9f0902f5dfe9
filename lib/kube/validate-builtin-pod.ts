/**
 * Schemas of PodSpec, Container and PodTemplateSpec (every field of Kubernetes 1.34 at these
 * levels; probes, affinity, security contexts and volume sources are left open), shared by Pods,
 * PodTemplates and every workload kind.
 */
import {
  anything,
  bool,
  int32,
  int64,
  list,
  looseObj,
  mapOf,
  OBJECT_META,
  obj,
  openObject,
  quantity,
  type Schema,
  str,
} from './validate-builtin-dsl.ts'

const strings = list(str)

export const CONTAINER: Schema = obj({
  name: str,
  image: str,
  command: strings,
  args: strings,
  workingDir: str,
  ports: list(
    obj({ name: str, containerPort: int32, hostPort: int32, hostIP: str, protocol: str })
  ),
  envFrom: list(openObject),
  env: list(obj({ name: str, value: str, valueFrom: openObject })),
  resources: obj({ limits: mapOf(quantity), requests: mapOf(quantity), claims: list(openObject) }),
  resizePolicy: list(openObject),
  restartPolicy: str,
  restartPolicyRules: list(openObject),
  volumeMounts: list(
    obj({
      name: str,
      mountPath: str,
      subPath: str,
      subPathExpr: str,
      readOnly: bool,
      recursiveReadOnly: str,
      mountPropagation: str,
    })
  ),
  volumeDevices: list(openObject),
  livenessProbe: openObject,
  readinessProbe: openObject,
  startupProbe: openObject,
  lifecycle: openObject,
  terminationMessagePath: str,
  terminationMessagePolicy: str,
  imagePullPolicy: str,
  securityContext: openObject,
  stdin: bool,
  stdinOnce: bool,
  tty: bool,
})

export const POD_SPEC: Schema = obj({
  activeDeadlineSeconds: int64,
  affinity: openObject,
  automountServiceAccountToken: bool,
  containers: list(CONTAINER),
  dnsConfig: openObject,
  dnsPolicy: str,
  enableServiceLinks: bool,
  ephemeralContainers: list(openObject),
  hostAliases: list(openObject),
  hostIPC: bool,
  hostNetwork: bool,
  hostPID: bool,
  hostUsers: bool,
  hostname: str,
  hostnameOverride: str,
  imagePullSecrets: list(openObject),
  initContainers: list(CONTAINER),
  nodeName: str,
  nodeSelector: mapOf(str),
  os: openObject,
  overhead: mapOf(quantity),
  preemptionPolicy: str,
  priority: int32,
  priorityClassName: str,
  readinessGates: list(openObject),
  resourceClaims: list(openObject),
  resources: openObject,
  restartPolicy: str,
  runtimeClassName: str,
  schedulerName: str,
  schedulingGates: list(openObject),
  securityContext: openObject,
  serviceAccount: str,
  serviceAccountName: str,
  setHostnameAsFQDN: bool,
  shareProcessNamespace: bool,
  subdomain: str,
  terminationGracePeriodSeconds: int64,
  tolerations: list(openObject),
  topologySpreadConstraints: list(openObject),
  volumes: list(looseObj({ name: str })),
})

export const POD_TEMPLATE_SPEC: Schema = obj({ metadata: OBJECT_META, spec: POD_SPEC })

/** Open status: the hub stores whatever status writers send. */
export const STATUS: Schema = anything
