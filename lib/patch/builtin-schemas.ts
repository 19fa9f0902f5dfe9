/**
 * Merge keys of the common built-in kinds, by JSON field path, as the `patchStrategy` and
 * `patchMergeKey` struct tags of k8s.io/api declare them (and the `listMapKeys` server-side apply
 * uses, where they differ). Covers object metadata everywhere, the Pod spec wherever it is
 * embedded (Pod, PodTemplate, ReplicationController, Deployment, ReplicaSet, StatefulSet,
 * DaemonSet, Job, CronJob), Service ports, ServiceAccount secrets, Node and status conditions.
 * Every other list is atomic. Kinds of the built-in API groups that are not listed still get the
 * metadata entries; custom resources do not support strategic merge at all (kube answers 415).
 */
import type { NodeSchema } from './patch-schema.ts'
import { fields, keyedList, SET_LIST } from './patch-schema.ts'

export const OBJECT_META = fields({ finalizers: SET_LIST, ownerReferences: keyedList('uid') })

const CONTAINER = fields({
  ports: keyedList('containerPort', undefined, {
    keys: ['containerPort', 'protocol'],
    keyDefaults: { protocol: 'TCP' },
  }),
  env: keyedList('name'),
  volumeMounts: keyedList('mountPath'),
  volumeDevices: keyedList('devicePath'),
})

const POD_SPEC = fields({
  containers: keyedList('name', CONTAINER),
  initContainers: keyedList('name', CONTAINER),
  ephemeralContainers: keyedList('name', CONTAINER),
  volumes: keyedList('name'),
  imagePullSecrets: keyedList('name'),
  hostAliases: keyedList('ip'),
  topologySpreadConstraints: keyedList('topologyKey', undefined, {
    keys: ['topologyKey', 'whenUnsatisfiable'],
  }),
  resourceClaims: keyedList('name'),
  schedulingGates: keyedList('name'),
})

const CONDITIONS = keyedList('type')
const STATUS_WITH_CONDITIONS = fields({ conditions: CONDITIONS })
const POD_TEMPLATE = fields({ metadata: OBJECT_META, spec: POD_SPEC })

/** A kind whose `spec.template` is a pod template, with status conditions. */
const workload = (): NodeSchema =>
  fields({
    metadata: OBJECT_META,
    spec: fields({ template: POD_TEMPLATE }),
    status: STATUS_WITH_CONDITIONS,
  })

const POD = fields({
  metadata: OBJECT_META,
  spec: POD_SPEC,
  status: fields({
    conditions: CONDITIONS,
    podIPs: keyedList('ip'),
    hostIPs: keyedList('ip'),
  }),
})

const SERVICE = fields({
  metadata: OBJECT_META,
  spec: fields({
    ports: keyedList('port', undefined, {
      keys: ['port', 'protocol'],
      keyDefaults: { protocol: 'TCP' },
    }),
  }),
  status: STATUS_WITH_CONDITIONS,
})

const CRON_JOB = fields({
  metadata: OBJECT_META,
  spec: fields({
    jobTemplate: fields({ metadata: OBJECT_META, spec: fields({ template: POD_TEMPLATE }) }),
  }),
})

const NODE = fields({
  metadata: OBJECT_META,
  spec: fields({ podCIDRs: SET_LIST }),
  status: fields({ conditions: CONDITIONS, addresses: keyedList('type') }),
})

/** Root schemas by `group/Kind` ('' is the core group). */
const KINDS: Readonly<Record<string, NodeSchema>> = {
  '/Pod': POD,
  '/PodTemplate': fields({ metadata: OBJECT_META, template: POD_TEMPLATE }),
  '/ReplicationController': workload(),
  'apps/Deployment': workload(),
  'apps/ReplicaSet': workload(),
  'apps/StatefulSet': workload(),
  'apps/DaemonSet': workload(),
  'batch/Job': workload(),
  'batch/CronJob': CRON_JOB,
  '/Service': SERVICE,
  '/Node': NODE,
  '/Namespace': fields({ metadata: OBJECT_META, status: STATUS_WITH_CONDITIONS }),
  '/PersistentVolumeClaim': fields({ metadata: OBJECT_META, status: STATUS_WITH_CONDITIONS }),
  '/ServiceAccount': fields({ metadata: OBJECT_META, secrets: keyedList('name') }),
}

/** The schema every object has, whatever its kind: only its metadata lists merge. */
export const GENERIC_OBJECT: NodeSchema = fields({ metadata: OBJECT_META })

/** API groups served by Go types in kube (and so by strategic merge), rather than by CRDs. */
const BUILTIN_GROUPS: ReadonlySet<string> = new Set([
  '',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'apiregistration.k8s.io',
  'apps',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'autoscaling',
  'batch',
  'certificates.k8s.io',
  'coordination.k8s.io',
  'discovery.k8s.io',
  'events.k8s.io',
  'extensions',
  'flowcontrol.apiserver.k8s.io',
  'internal.apiserver.k8s.io',
  'networking.k8s.io',
  'node.k8s.io',
  'policy',
  'rbac.authorization.k8s.io',
  'resource.k8s.io',
  'scheduling.k8s.io',
  'storage.k8s.io',
  'storagemigration.k8s.io',
])

/** True when objects of this group are built-in kinds (not custom resources). */
export function isBuiltinGroup(group: string): boolean {
  return BUILTIN_GROUPS.has(group)
}

/** The merge-key schema of a kind; kinds not in the table get the generic object schema. */
export function schemaForKind(group: string, kind: string): NodeSchema {
  return KINDS[`${group}/${kind}`] ?? GENERIC_OBJECT
}

/** The schema of an object, from its `apiVersion` (group part) and `kind`. */
export function schemaForObject(obj: { apiVersion?: string; kind?: string }): NodeSchema {
  const apiVersion = obj.apiVersion ?? ''
  const group = apiVersion.includes('/') ? (apiVersion.split('/')[0] ?? '') : ''
  return schemaForKind(group, obj.kind ?? '')
}
