/**
 * Built-in workload resources: apps/v1, batch/v1, autoscaling (v2 preferred, v1 also served),
 * policy/v1 and discovery.k8s.io/v1, with kube's short names, the `all` category, and the status
 * and scale subresources.
 */
import { type BuiltinSpec, builtinResource, type ResourceInfo } from './resource-info.ts'

type Spec = Omit<BuiltinSpec, 'group' | 'versions' | 'namespaced'>
const inGroup = (group: string, versions: string[]) => (spec: Spec) =>
  builtinResource({ group, versions, namespaced: true, ...spec })

const apps = inGroup('apps', ['v1'])
const batch = inGroup('batch', ['v1'])
const ALL = ['all']

export const WORKLOAD_RESOURCES: ResourceInfo[] = [
  apps({ resource: 'controllerrevisions', kind: 'ControllerRevision' }),
  apps({
    resource: 'daemonsets',
    kind: 'DaemonSet',
    shortNames: ['ds'],
    categories: ALL,
    status: true,
  }),
  apps({
    resource: 'deployments',
    kind: 'Deployment',
    shortNames: ['deploy'],
    categories: ALL,
    status: true,
    scale: true,
  }),
  apps({
    resource: 'replicasets',
    kind: 'ReplicaSet',
    shortNames: ['rs'],
    categories: ALL,
    status: true,
    scale: true,
  }),
  apps({
    resource: 'statefulsets',
    kind: 'StatefulSet',
    shortNames: ['sts'],
    categories: ALL,
    status: true,
    scale: true,
  }),
  batch({
    resource: 'cronjobs',
    kind: 'CronJob',
    shortNames: ['cj'],
    categories: ALL,
    status: true,
  }),
  batch({ resource: 'jobs', kind: 'Job', categories: ALL, status: true }),
  inGroup('autoscaling', ['v2', 'v1'])({
    resource: 'horizontalpodautoscalers',
    kind: 'HorizontalPodAutoscaler',
    shortNames: ['hpa'],
    categories: ALL,
    status: true,
  }),
  inGroup('policy', ['v1'])({
    resource: 'poddisruptionbudgets',
    kind: 'PodDisruptionBudget',
    shortNames: ['pdb'],
    status: true,
  }),
  inGroup('discovery.k8s.io', ['v1'])({ resource: 'endpointslices', kind: 'EndpointSlice' }),
]
