/**
 * The OpenAPI v3 schema of each built-in Kubernetes kind, as far as the hub checks it: the common
 * kinds (ConfigMap, Secret, Namespace, Service, ServiceAccount, Pod, PodTemplate, the workload
 * controllers, Job, CronJob) down to their spec fields and pod templates; every other kind by its
 * known top-level fields only. Used by strict field validation and by `/openapi/v3`.
 */
import type { ResourceInfo } from './resource-info.ts'
import {
  bool,
  fieldsOnly,
  int32,
  int64,
  intOrString,
  LABEL_SELECTOR,
  list,
  mapOf,
  OBJECT_META,
  obj,
  openObject,
  type Schema,
  str,
} from './validate-builtin-dsl.ts'
import { POD_SPEC, POD_TEMPLATE_SPEC, STATUS } from './validate-builtin-pod.ts'

const strings = list(str)

const SERVICE_SPEC = obj({
  allocateLoadBalancerNodePorts: bool,
  clusterIP: str,
  clusterIPs: strings,
  externalIPs: strings,
  externalName: str,
  externalTrafficPolicy: str,
  healthCheckNodePort: int32,
  internalTrafficPolicy: str,
  ipFamilies: strings,
  ipFamilyPolicy: str,
  loadBalancerClass: str,
  loadBalancerIP: str,
  loadBalancerSourceRanges: strings,
  ports: list(
    obj({
      name: str,
      protocol: str,
      appProtocol: str,
      port: int32,
      targetPort: intOrString,
      nodePort: int32,
    })
  ),
  publishNotReadyAddresses: bool,
  selector: mapOf(str),
  sessionAffinity: str,
  sessionAffinityConfig: openObject,
  trafficDistribution: str,
  type: str,
})

const DEPLOYMENT_SPEC = obj({
  replicas: int32,
  selector: LABEL_SELECTOR,
  template: POD_TEMPLATE_SPEC,
  strategy: obj({
    type: str,
    rollingUpdate: obj({ maxUnavailable: intOrString, maxSurge: intOrString }),
  }),
  minReadySeconds: int32,
  revisionHistoryLimit: int32,
  paused: bool,
  progressDeadlineSeconds: int32,
})

const REPLICASET_SPEC = obj({
  replicas: int32,
  minReadySeconds: int32,
  selector: LABEL_SELECTOR,
  template: POD_TEMPLATE_SPEC,
})

const STATEFULSET_SPEC = obj({
  replicas: int32,
  selector: LABEL_SELECTOR,
  template: POD_TEMPLATE_SPEC,
  volumeClaimTemplates: list(openObject),
  serviceName: str,
  podManagementPolicy: str,
  updateStrategy: openObject,
  revisionHistoryLimit: int32,
  minReadySeconds: int32,
  persistentVolumeClaimRetentionPolicy: openObject,
  ordinals: openObject,
})

const DAEMONSET_SPEC = obj({
  selector: LABEL_SELECTOR,
  template: POD_TEMPLATE_SPEC,
  updateStrategy: openObject,
  minReadySeconds: int32,
  revisionHistoryLimit: int32,
})

const JOB_SPEC = obj({
  parallelism: int32,
  completions: int32,
  activeDeadlineSeconds: int64,
  podFailurePolicy: openObject,
  successPolicy: openObject,
  backoffLimit: int32,
  backoffLimitPerIndex: int32,
  maxFailedIndexes: int32,
  selector: LABEL_SELECTOR,
  manualSelector: bool,
  template: POD_TEMPLATE_SPEC,
  ttlSecondsAfterFinished: int32,
  completionMode: str,
  suspend: bool,
  podReplacementPolicy: str,
  managedBy: str,
})

const CRONJOB_SPEC = obj({
  schedule: str,
  timeZone: str,
  startingDeadlineSeconds: int64,
  concurrencyPolicy: str,
  suspend: bool,
  jobTemplate: obj({ metadata: OBJECT_META, spec: JOB_SPEC }),
  successfulJobsHistoryLimit: int32,
  failedJobsHistoryLimit: int32,
})

const specStatus = (spec: Schema) => ({ spec, status: STATUS })

/** Fields other than apiVersion, kind and metadata, by `<group>/<Kind>`. */
const FIELDS: Record<string, Record<string, Schema>> = {
  '/ConfigMap': { data: mapOf(str), binaryData: mapOf(str), immutable: bool },
  '/Secret': { data: mapOf(str), stringData: mapOf(str), type: str, immutable: bool },
  '/Namespace': specStatus(obj({ finalizers: strings })),
  '/Service': specStatus(SERVICE_SPEC),
  '/ServiceAccount': {
    secrets: list(openObject),
    imagePullSecrets: list(openObject),
    automountServiceAccountToken: bool,
  },
  '/Pod': specStatus(POD_SPEC),
  '/PodTemplate': { template: POD_TEMPLATE_SPEC },
  '/ReplicationController': specStatus(
    obj({
      replicas: int32,
      minReadySeconds: int32,
      selector: mapOf(str),
      template: POD_TEMPLATE_SPEC,
    })
  ),
  '/Endpoints': fieldsOnly(['subsets']),
  '/Event': fieldsOnly([
    'involvedObject',
    'reason',
    'message',
    'source',
    'firstTimestamp',
    'lastTimestamp',
    'count',
    'type',
    'eventTime',
    'series',
    'action',
    'related',
    'reportingComponent',
    'reportingInstance',
  ]),
  'apps/Deployment': specStatus(DEPLOYMENT_SPEC),
  'apps/ReplicaSet': specStatus(REPLICASET_SPEC),
  'apps/StatefulSet': specStatus(STATEFULSET_SPEC),
  'apps/DaemonSet': specStatus(DAEMONSET_SPEC),
  'apps/ControllerRevision': fieldsOnly(['data', 'revision']),
  'batch/Job': specStatus(JOB_SPEC),
  'batch/CronJob': specStatus(CRONJOB_SPEC),
  'discovery.k8s.io/EndpointSlice': fieldsOnly(['addressType', 'endpoints', 'ports']),
  'rbac.authorization.k8s.io/Role': fieldsOnly(['rules']),
  'rbac.authorization.k8s.io/ClusterRole': fieldsOnly(['rules', 'aggregationRule']),
  'rbac.authorization.k8s.io/RoleBinding': fieldsOnly(['subjects', 'roleRef']),
  'rbac.authorization.k8s.io/ClusterRoleBinding': fieldsOnly(['subjects', 'roleRef']),
  'storage.k8s.io/StorageClass': fieldsOnly([
    'provisioner',
    'parameters',
    'reclaimPolicy',
    'mountOptions',
    'allowVolumeExpansion',
    'volumeBindingMode',
    'allowedTopologies',
  ]),
  'storage.k8s.io/CSIStorageCapacity': fieldsOnly([
    'nodeTopology',
    'storageClassName',
    'capacity',
    'maximumVolumeSize',
  ]),
  'scheduling.k8s.io/PriorityClass': fieldsOnly([
    'value',
    'globalDefault',
    'description',
    'preemptionPolicy',
  ]),
  'node.k8s.io/RuntimeClass': fieldsOnly(['handler', 'overhead', 'scheduling']),
  'events.k8s.io/Event': fieldsOnly([
    'eventTime',
    'series',
    'reportingController',
    'reportingInstance',
    'action',
    'reason',
    'regarding',
    'related',
    'note',
    'type',
    'deprecatedSource',
    'deprecatedFirstTimestamp',
    'deprecatedLastTimestamp',
    'deprecatedCount',
  ]),
  'admissionregistration.k8s.io/MutatingWebhookConfiguration': fieldsOnly(['webhooks']),
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration': fieldsOnly(['webhooks']),
}

const DEFAULT_FIELDS = fieldsOnly(['spec', 'status'])

const cache = new Map<string, Schema>()

/** The schema of a built-in kind (cached; do not mutate). */
export function builtinSchemaFor(info: Pick<ResourceInfo, 'group' | 'kind'>): Schema {
  const key = `${info.group}/${info.kind}`
  const hit = cache.get(key)
  if (hit) return hit
  const schema = obj({
    apiVersion: str,
    kind: str,
    metadata: OBJECT_META,
    ...(FIELDS[key] ?? DEFAULT_FIELDS),
  })
  cache.set(key, schema)
  return schema
}
