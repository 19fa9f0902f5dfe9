import { describe, expect, it } from 'vitest'
import {
  AGGREGATED_DISCOVERY_V2,
  buildAggregatedDiscovery,
  buildApiGroup,
  buildApiGroupList,
  buildApiResourceList,
  buildApiVersions,
} from '../../../lib/kube/discovery.ts'
import { createRegistry } from '../../../lib/kube/registry.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'

const widgets: KubeObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.group3.test' },
  spec: {
    group: 'group3.test',
    scope: 'Cluster',
    names: { plural: 'widgets', kind: 'Widget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object' } },
        subresources: { status: {} },
      },
    ],
  },
}
const registry = createRegistry([widgets])

describe('legacy discovery', () => {
  it('/api lists v1', () => {
    expect(buildApiVersions()).toEqual({
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [],
    })
    expect(buildApiVersions('10.0.0.1:443').serverAddressByClientCIDRs[0]?.serverAddress).toBe(
      '10.0.0.1:443'
    )
  })

  it('/apis lists named groups with versions and preferred versions', () => {
    const list = buildApiGroupList(registry)
    expect(list.kind).toBe('APIGroupList')
    expect(list.apiVersion).toBe('v1')
    expect(list.groups.some((g) => g.name === '')).toBe(false)
    const autoscaling = list.groups.find((g) => g.name === 'autoscaling')
    expect(autoscaling?.versions).toEqual([
      { groupVersion: 'autoscaling/v2', version: 'v2' },
      { groupVersion: 'autoscaling/v1', version: 'v1' },
    ])
    expect(autoscaling?.preferredVersion).toEqual({ groupVersion: 'autoscaling/v2', version: 'v2' })
    expect(list.groups.find((g) => g.name === 'edge.kcp.io')?.preferredVersion.groupVersion).toBe(
      'edge.kcp.io/v1alpha1'
    )
    expect(list.groups.at(-1)?.name).toBe('group3.test')
  })

  it('/apis/<g> is one APIGroup; unknown groups are undefined', () => {
    expect(buildApiGroup(registry, 'apps')).toMatchObject({
      kind: 'APIGroup',
      apiVersion: 'v1',
      name: 'apps',
    })
    expect(buildApiGroup(registry, 'nope.test')).toBeUndefined()
    expect(buildApiGroup(registry, '')).toBeUndefined()
  })

  it('/api/v1 lists core resources with the fields kubectl needs', () => {
    const list = buildApiResourceList(registry, '', 'v1')
    expect(list?.kind).toBe('APIResourceList')
    expect(list?.groupVersion).toBe('v1')
    const cm = list?.resources.find((r) => r.name === 'configmaps')
    expect(cm).toEqual({
      name: 'configmaps',
      singularName: 'configmap',
      namespaced: true,
      kind: 'ConfigMap',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['cm'],
    })
    expect(list?.resources.find((r) => r.name === 'pods')?.categories).toEqual(['all'])
    expect(list?.resources.find((r) => r.name === 'pods/status')).toEqual({
      name: 'pods/status',
      singularName: '',
      namespaced: true,
      kind: 'Pod',
      verbs: ['get', 'patch', 'update'],
    })
    expect(list?.resources.find((r) => r.name === 'secrets/status')).toBeUndefined()
  })

  it('/apis/<g>/<v> includes scale subresources and CRD resources', () => {
    const apps = buildApiResourceList(registry, 'apps', 'v1')
    expect(apps?.groupVersion).toBe('apps/v1')
    expect(apps?.resources.find((r) => r.name === 'deployments/scale')).toMatchObject({
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
    })
    const edge = buildApiResourceList(registry, 'edge.kcp.io', 'v1alpha1')
    expect(edge?.resources.find((r) => r.name === 'edgeplacements')).toMatchObject({
      namespaced: false,
      shortNames: ['epl'],
      kind: 'EdgePlacement',
    })
    expect(edge?.resources.some((r) => r.name === 'singleplacementslices/status')).toBe(false)
    const w = buildApiResourceList(registry, 'group3.test', 'v1')
    expect(w?.resources.map((r) => r.name)).toEqual(['widgets', 'widgets/status'])
    expect(buildApiResourceList(registry, 'apps', 'v2')).toBeUndefined()
  })
})

describe('aggregated discovery', () => {
  it('/api carries only the core group', () => {
    const doc = buildAggregatedDiscovery(registry, 'legacy')
    expect(doc.kind).toBe('APIGroupDiscoveryList')
    expect(doc.apiVersion).toBe(AGGREGATED_DISCOVERY_V2)
    expect(doc.items).toHaveLength(1)
    const v1 = doc.items[0]?.versions[0]
    expect(v1?.version).toBe('v1')
    expect(v1?.freshness).toBe('Current')
    const ns = v1?.resources.find((r) => r.resource === 'namespaces')
    expect(ns).toMatchObject({
      responseKind: { group: '', version: 'v1', kind: 'Namespace' },
      scope: 'Cluster',
      singularResource: 'namespace',
      shortNames: ['ns'],
    })
    expect(ns?.subresources).toEqual([
      {
        subresource: 'status',
        responseKind: { group: '', version: 'v1', kind: 'Namespace' },
        verbs: ['get', 'patch', 'update'],
      },
    ])
  })

  it('/apis carries every named group, versions preferred first', () => {
    const doc = buildAggregatedDiscovery(registry, 'apis')
    expect(doc.items.some((i) => i.metadata.name === undefined)).toBe(false)
    const autoscaling = doc.items.find((i) => i.metadata.name === 'autoscaling')
    expect(autoscaling?.versions.map((v) => v.version)).toEqual(['v2', 'v1'])
    const hpa = autoscaling?.versions[1]?.resources[0]
    expect(hpa?.responseKind).toEqual({
      group: 'autoscaling',
      version: 'v1',
      kind: 'HorizontalPodAutoscaler',
    })
    const deploy = doc.items
      .find((i) => i.metadata.name === 'apps')
      ?.versions[0]?.resources.find((r) => r.resource === 'deployments')
    expect(deploy?.scope).toBe('Namespaced')
    expect(deploy?.categories).toEqual(['all'])
    expect(deploy?.subresources?.map((s) => s.subresource)).toEqual(['status', 'scale'])
    expect(deploy?.subresources?.[1]?.responseKind.kind).toBe('Scale')
    const widget = doc.items.find((i) => i.metadata.name === 'group3.test')?.versions[0]
      ?.resources[0]
    expect(widget).toMatchObject({
      resource: 'widgets',
      scope: 'Cluster',
      singularResource: 'widget',
    })
  })

  it('can label the document v2beta1', () => {
    expect(
      buildAggregatedDiscovery(registry, 'apis', 'apidiscovery.k8s.io/v2beta1').apiVersion
    ).toBe('apidiscovery.k8s.io/v2beta1')
  })
})
