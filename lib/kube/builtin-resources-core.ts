/**
 * Built-in resources of the core (legacy, `/api/v1`) group, with kube's short names, categories,
 * verbs and subresources. Everything is plain stored data in the hub except Namespaces, whose
 * deletion cascades (handled elsewhere).
 */
import { builtinResource, type ResourceInfo } from './resource-info.ts'

const core = (spec: Omit<Parameters<typeof builtinResource>[0], 'group' | 'versions'>) =>
  builtinResource({ group: '', versions: ['v1'], ...spec })

export const CORE_RESOURCES: ResourceInfo[] = [
  core({ resource: 'configmaps', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'] }),
  core({
    resource: 'endpoints',
    kind: 'Endpoints',
    namespaced: true,
    shortNames: ['ep'],
    singular: 'endpoints',
  }),
  core({ resource: 'events', kind: 'Event', namespaced: true, shortNames: ['ev'] }),
  core({ resource: 'limitranges', kind: 'LimitRange', namespaced: true, shortNames: ['limits'] }),
  core({
    resource: 'namespaces',
    kind: 'Namespace',
    namespaced: false,
    shortNames: ['ns'],
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    status: true,
  }),
  core({ resource: 'nodes', kind: 'Node', namespaced: false, shortNames: ['no'], status: true }),
  core({
    resource: 'persistentvolumeclaims',
    kind: 'PersistentVolumeClaim',
    namespaced: true,
    shortNames: ['pvc'],
    status: true,
  }),
  core({
    resource: 'persistentvolumes',
    kind: 'PersistentVolume',
    namespaced: false,
    shortNames: ['pv'],
    status: true,
  }),
  core({
    resource: 'pods',
    kind: 'Pod',
    namespaced: true,
    shortNames: ['po'],
    categories: ['all'],
    status: true,
  }),
  core({ resource: 'podtemplates', kind: 'PodTemplate', namespaced: true }),
  core({
    resource: 'replicationcontrollers',
    kind: 'ReplicationController',
    namespaced: true,
    shortNames: ['rc'],
    categories: ['all'],
    status: true,
    scale: true,
  }),
  core({
    resource: 'resourcequotas',
    kind: 'ResourceQuota',
    namespaced: true,
    shortNames: ['quota'],
    status: true,
  }),
  core({ resource: 'secrets', kind: 'Secret', namespaced: true }),
  core({
    resource: 'serviceaccounts',
    kind: 'ServiceAccount',
    namespaced: true,
    shortNames: ['sa'],
  }),
  core({
    resource: 'services',
    kind: 'Service',
    namespaced: true,
    shortNames: ['svc'],
    categories: ['all'],
    status: true,
  }),
]
