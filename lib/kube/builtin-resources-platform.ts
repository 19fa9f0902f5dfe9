/**
 * Built-in platform resources: networking, RBAC, storage, scheduling, node, coordination,
 * events.k8s.io, admission registration, API registration, flow control and API extensions
 * (CustomResourceDefinitions). In the hub these are plain data, except CRDs, which define new
 * resources in their space.
 */
import { type BuiltinSpec, builtinResource, type ResourceInfo } from './resource-info.ts'

type Spec = Omit<BuiltinSpec, 'group' | 'versions'>
const inGroup = (group: string) => (spec: Spec) =>
  builtinResource({ group, versions: ['v1'], ...spec })

const networking = inGroup('networking.k8s.io')
const rbac = inGroup('rbac.authorization.k8s.io')
const storage = inGroup('storage.k8s.io')
const admission = inGroup('admissionregistration.k8s.io')
const flowcontrol = inGroup('flowcontrol.apiserver.k8s.io')
const API_EXTENSIONS = ['api-extensions']

/** Reviews are create-only and never stored: the hub answers them from the caller's token. */
const REVIEW_VERBS = ['create']

export const PLATFORM_RESOURCES: ResourceInfo[] = [
  inGroup('authentication.k8s.io')({
    resource: 'selfsubjectreviews',
    kind: 'SelfSubjectReview',
    namespaced: false,
    verbs: REVIEW_VERBS,
  }),
  inGroup('authorization.k8s.io')({
    resource: 'selfsubjectaccessreviews',
    kind: 'SelfSubjectAccessReview',
    namespaced: false,
    verbs: REVIEW_VERBS,
  }),
  inGroup('authorization.k8s.io')({
    resource: 'selfsubjectrulesreviews',
    kind: 'SelfSubjectRulesReview',
    namespaced: false,
    verbs: REVIEW_VERBS,
  }),
  networking({ resource: 'ingressclasses', kind: 'IngressClass', namespaced: false }),
  networking({
    resource: 'ingresses',
    kind: 'Ingress',
    namespaced: true,
    shortNames: ['ing'],
    status: true,
  }),
  networking({
    resource: 'networkpolicies',
    kind: 'NetworkPolicy',
    namespaced: true,
    shortNames: ['netpol'],
  }),
  rbac({ resource: 'clusterrolebindings', kind: 'ClusterRoleBinding', namespaced: false }),
  rbac({ resource: 'clusterroles', kind: 'ClusterRole', namespaced: false }),
  rbac({ resource: 'rolebindings', kind: 'RoleBinding', namespaced: true }),
  rbac({ resource: 'roles', kind: 'Role', namespaced: true }),
  storage({ resource: 'csidrivers', kind: 'CSIDriver', namespaced: false }),
  storage({ resource: 'csinodes', kind: 'CSINode', namespaced: false }),
  storage({ resource: 'csistoragecapacities', kind: 'CSIStorageCapacity', namespaced: true }),
  storage({
    resource: 'storageclasses',
    kind: 'StorageClass',
    namespaced: false,
    shortNames: ['sc'],
  }),
  storage({
    resource: 'volumeattachments',
    kind: 'VolumeAttachment',
    namespaced: false,
    status: true,
  }),
  inGroup('scheduling.k8s.io')({
    resource: 'priorityclasses',
    kind: 'PriorityClass',
    namespaced: false,
    shortNames: ['pc'],
  }),
  inGroup('node.k8s.io')({ resource: 'runtimeclasses', kind: 'RuntimeClass', namespaced: false }),
  inGroup('coordination.k8s.io')({ resource: 'leases', kind: 'Lease', namespaced: true }),
  inGroup('events.k8s.io')({ resource: 'events', kind: 'Event', namespaced: true }),
  admission({
    resource: 'mutatingwebhookconfigurations',
    kind: 'MutatingWebhookConfiguration',
    namespaced: false,
    categories: API_EXTENSIONS,
  }),
  admission({
    resource: 'validatingadmissionpolicies',
    kind: 'ValidatingAdmissionPolicy',
    namespaced: false,
    categories: API_EXTENSIONS,
    status: true,
  }),
  admission({
    resource: 'validatingadmissionpolicybindings',
    kind: 'ValidatingAdmissionPolicyBinding',
    namespaced: false,
    categories: API_EXTENSIONS,
  }),
  admission({
    resource: 'validatingwebhookconfigurations',
    kind: 'ValidatingWebhookConfiguration',
    namespaced: false,
    categories: API_EXTENSIONS,
  }),
  inGroup('apiregistration.k8s.io')({
    resource: 'apiservices',
    kind: 'APIService',
    namespaced: false,
    categories: API_EXTENSIONS,
    status: true,
  }),
  flowcontrol({ resource: 'flowschemas', kind: 'FlowSchema', namespaced: false, status: true }),
  flowcontrol({
    resource: 'prioritylevelconfigurations',
    kind: 'PriorityLevelConfiguration',
    namespaced: false,
    status: true,
  }),
  inGroup('apiextensions.k8s.io')({
    resource: 'customresourcedefinitions',
    kind: 'CustomResourceDefinition',
    namespaced: false,
    shortNames: ['crd', 'crds'],
    categories: API_EXTENSIONS,
    status: true,
  }),
]
