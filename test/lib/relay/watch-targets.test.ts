import { describe, expect, it } from 'vitest'
import {
  CORE_TARGETS,
  type DiscoveredResource,
  isCoreTarget,
  isWatchedResource,
  listsOnStart,
  selectWatchTargets,
  targetId,
  targetPath,
} from '../../../lib/relay/watch-targets.ts'

const ALL = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']
const res = (
  group: string,
  version: string,
  resource: string,
  verbs = ALL
): DiscoveredResource => ({
  group,
  version,
  resource,
  verbs,
})

describe('watch targets', () => {
  it.each([
    ['', 'configmaps', true],
    ['apps', 'deployments', true],
    ['', 'namespaces', true],
    ['apiextensions.k8s.io', 'customresourcedefinitions', true],
    ['apis.kcp.io', 'apibindings', true],
    ['apiregistration.k8s.io', 'apiservices', true],
    ['edge.kcp.io', 'customizers', true],
    ['edge.kcp.io', 'synctargets', true],
    ['tenancy.kcp.io', 'workspaces', true],
    ['', 'events', false],
    ['events.k8s.io', 'events', false],
    ['coordination.k8s.io', 'leases', false],
    ['', 'endpoints', false],
    ['edge.kcp.io', 'syncerconfigs', false],
    ['tenancy.kcp.io', 'workspacetypes', false],
    ['authorization.k8s.io', 'selfsubjectaccessreviews', false],
  ])('%s/%s watched: %s', (group, resource, watched) => {
    expect(isWatchedResource(group, resource)).toBe(watched)
  })

  it('selects listable and watchable resources once, at their first (preferred) version', () => {
    const picked = selectWatchTargets([
      res('', 'v1', 'configmaps'),
      res('', 'v1', 'events'),
      res('', 'v1', 'configmaps/status'),
      res('autoscaling', 'v2', 'horizontalpodautoscalers'),
      res('autoscaling', 'v1', 'horizontalpodautoscalers'),
      res('authentication.k8s.io', 'v1', 'selfsubjectreviews', ['create']),
      res('example.com', 'v1', 'readonly', ['get', 'list']),
      res('edge.kcp.io', 'v1alpha1', 'customizers'),
      res('edge.kcp.io', 'v1alpha1', 'synctargets'),
    ])
    expect(picked.slice(0, CORE_TARGETS.length)).toEqual(CORE_TARGETS)
    expect(picked.slice(CORE_TARGETS.length).map(targetPath)).toEqual([
      '/clusters/*/api/v1/configmaps',
      '/clusters/*/apis/autoscaling/v2/horizontalpodautoscalers',
      '/clusters/*/apis/edge.kcp.io/v1alpha1/customizers',
    ])
  })

  it('names cursors and paths per space', () => {
    const crd = { group: 'example.com', version: 'v1', resource: 'widgets', space: 'ws1' }
    expect(targetId(crd)).toBe('ws1/example.com/widgets')
    expect(targetPath(crd)).toBe('/clusters/ws1/apis/example.com/v1/widgets')
    expect(targetId({ group: '', version: 'v1', resource: 'configmaps' })).toBe('*/core/configmaps')
    expect(isCoreTarget(crd)).toBe(false)
    expect(CORE_TARGETS.every(isCoreTarget)).toBe(true)
    expect(CORE_TARGETS.filter(listsOnStart).map((t) => t.resource)).toEqual([
      'locations',
      'rollouts',
      'singleplacementslices',
      'workspaces',
      'customresourcedefinitions',
    ])
  })
})
