import { describe, expect, it } from 'vitest'
import {
  type Category,
  categoryOf,
  EDGE_GROUP,
  isSystemInfrastructure,
} from '../../../lib/apis/categories.ts'
import { BUILTIN_RESOURCES } from '../../../lib/kube/builtin-resources.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'

describe('categoryOf', () => {
  const cases: [group: string, resource: string, want: Category][] = [
    // natured in both
    ['apiextensions.k8s.io', 'customresourcedefinitions', 'natured-both'],
    ['', 'namespaces', 'natured-both'],
    // mailbox only
    ['apis.kcp.io', 'apibindings', 'mailbox-only'],
    // unsupported
    ['apiregistration.k8s.io', 'apiservices', 'unsupported'],
    ['apiresource.kcp.io', 'apiresourceimports', 'unsupported'],
    ['apiresource.kcp.io', 'negotiatedapiresources', 'unsupported'],
    ['apis.kcp.io', 'apiconversions', 'unsupported'],
    // not for edge: whole groups
    [EDGE_GROUP, 'edgeplacements', 'not-for-edge'],
    [EDGE_GROUP, 'customizers', 'not-for-edge'],
    [EDGE_GROUP, 'syncerconfigs', 'not-for-edge'],
    [EDGE_GROUP, 'anything-new', 'not-for-edge'],
    ['scheduling.kcp.io', 'placements', 'not-for-edge'],
    ['tenancy.kcp.io', 'workspaces', 'not-for-edge'],
    // the administrator's tenancy policy never leaves the center, even from a root placement
    ['tenancy.edgeplane.io', 'placementgrants', 'not-for-edge'],
    ['tenancy.edgeplane.io', 'inventories', 'not-for-edge'],
    ['tenancy.edgeplane.io', 'spacequotas', 'not-for-edge'],
    ['topology.kcp.io', 'partitions', 'not-for-edge'],
    ['workload.kcp.io', 'synctargets', 'not-for-edge'],
    ['core.kcp.io', 'logicalclusters', 'not-for-edge'],
    ['core.kcp.io', 'shards', 'not-for-edge'],
    // not for edge: single resources
    ['apis.kcp.io', 'apiexports', 'not-for-edge'],
    ['apis.kcp.io', 'apiexportendpointslices', 'not-for-edge'],
    ['apis.kcp.io', 'apiresourceschemas', 'not-for-edge'],
    ['apps', 'controllerrevisions', 'not-for-edge'],
    ['authentication.k8s.io', 'tokenreviews', 'not-for-edge'],
    ['authentication.k8s.io', 'selfsubjectreviews', 'not-for-edge'],
    ['authorization.k8s.io', 'subjectaccessreviews', 'not-for-edge'],
    ['authorization.k8s.io', 'localsubjectaccessreviews', 'not-for-edge'],
    ['authorization.k8s.io', 'selfsubjectaccessreviews', 'not-for-edge'],
    ['authorization.k8s.io', 'selfsubjectrulesreviews', 'not-for-edge'],
    ['certificates.k8s.io', 'certificatesigningrequests', 'not-for-edge'],
    ['', 'events', 'not-for-edge'],
    ['events.k8s.io', 'events', 'not-for-edge'],
    ['', 'bindings', 'not-for-edge'],
    ['', 'componentstatuses', 'not-for-edge'],
    ['', 'nodes', 'not-for-edge'],
    ['coordination.k8s.io', 'leases', 'not-for-edge'],
    ['', 'endpoints', 'not-for-edge'],
    ['discovery.k8s.io', 'endpointslices', 'not-for-edge'],
    ['storage.k8s.io', 'csinodes', 'not-for-edge'],
    ['storage.k8s.io', 'volumeattachments', 'not-for-edge'],
    ['storage.k8s.io', 'csistoragecapacities', 'not-for-edge'],
    // forcibly denatured in the outline: plain data in the hub, so they go
    ['rbac.authorization.k8s.io', 'roles', 'to-edge'],
    ['rbac.authorization.k8s.io', 'rolebindings', 'to-edge'],
    ['rbac.authorization.k8s.io', 'clusterroles', 'to-edge'],
    ['rbac.authorization.k8s.io', 'clusterrolebindings', 'to-edge'],
    ['admissionregistration.k8s.io', 'mutatingwebhookconfigurations', 'to-edge'],
    ['admissionregistration.k8s.io', 'validatingwebhookconfigurations', 'to-edge'],
    ['flowcontrol.apiserver.k8s.io', 'flowschemas', 'to-edge'],
    ['flowcontrol.apiserver.k8s.io', 'prioritylevelconfigurations', 'to-edge'],
    ['', 'limitranges', 'to-edge'],
    ['', 'resourcequotas', 'to-edge'],
    ['', 'serviceaccounts', 'to-edge'],
    // default
    ['apps', 'deployments', 'to-edge'],
    ['apps', 'replicasets', 'to-edge'],
    ['', 'configmaps', 'to-edge'],
    ['', 'secrets', 'to-edge'],
    ['', 'services', 'to-edge'],
    ['', 'pods', 'to-edge'],
    ['', 'persistentvolumes', 'to-edge'],
    ['batch', 'jobs', 'to-edge'],
    ['networking.k8s.io', 'ingresses', 'to-edge'],
    ['storage.k8s.io', 'storageclasses', 'to-edge'],
    ['example.com', 'widgets', 'to-edge'],
    // a resource name of one group does not leak into another
    ['example.com', 'events', 'to-edge'],
    ['example.com', 'namespaces', 'to-edge'],
  ]
  it.each(cases)('%s %s is %s', (group, resource, want) => {
    expect(categoryOf(group, resource)).toBe(want)
  })

  it('puts every built-in kcp and edge resource of the hub outside the edge', () => {
    const kcp = BUILTIN_RESOURCES.filter((r) => r.group.endsWith('.kcp.io'))
    expect(kcp.length).toBeGreaterThan(0)
    const going = kcp.filter((r) => categoryOf(r.group, r.resource) === 'to-edge')
    expect(going.map((r) => `${r.resource}.${r.group}`)).toEqual([])
  })
})

describe('isSystemInfrastructure', () => {
  const obj = (kind: string, name: string, extra: Partial<KubeObject> = {}): KubeObject => ({
    apiVersion: 'v1',
    kind,
    metadata: { name, namespace: 'ns' },
    ...extra,
  })
  const cases: [label: string, group: string, resource: string, o: KubeObject, want: boolean][] = [
    [
      'SA token Secret',
      '',
      'secrets',
      obj('Secret', 'x', { type: 'kubernetes.io/service-account-token' }),
      true,
    ],
    [
      'bootstrap token Secret',
      '',
      'secrets',
      obj('Secret', 'bootstrap-token-abc', { type: 'bootstrap.kubernetes.io/token' }),
      true,
    ],
    ['Opaque Secret', '', 'secrets', obj('Secret', 'x', { type: 'Opaque' }), false],
    ['Secret without type', '', 'secrets', obj('Secret', 'x'), false],
    ['kube-root-ca.crt', '', 'configmaps', obj('ConfigMap', 'kube-root-ca.crt'), true],
    ['other ConfigMap', '', 'configmaps', obj('ConfigMap', 'settings'), false],
    ['default SA', '', 'serviceaccounts', obj('ServiceAccount', 'default'), true],
    ['other SA', '', 'serviceaccounts', obj('ServiceAccount', 'builder'), false],
    [
      'same name in another group',
      'example.com',
      'configmaps',
      obj('ConfigMap', 'kube-root-ca.crt'),
      false,
    ],
    ['a Deployment named default', 'apps', 'deployments', obj('Deployment', 'default'), false],
  ]
  it.for(cases)('%s → %s', ([_label, group, resource, o, want]) => {
    expect(isSystemInfrastructure(group, resource, o)).toBe(want)
  })
})
