import { describe, expect, it } from 'vitest'
import {
  apiVersionOf,
  formatResourcePath,
  parseApiVersion,
  parseRequestPath,
  splitClusterPrefix,
} from '../../../lib/kube/request-path.ts'

describe('splitClusterPrefix', () => {
  it.each([
    ['/clusters/root:espw/api/v1', { space: 'root:espw', rest: '/api/v1' }],
    [
      '/clusters/*/apis/edge.kcp.io/v1alpha1/synctargets',
      { space: '*', rest: '/apis/edge.kcp.io/v1alpha1/synctargets' },
    ],
    ['/clusters/abc', { space: 'abc', rest: '/' }],
    ['/api/v1', { rest: '/api/v1' }],
  ])('%s', (path, want) => {
    expect(splitClusterPrefix(path)).toEqual(want)
  })
})

describe('parseRequestPath', () => {
  it.each([
    ['/api', { kind: 'legacy-root' }],
    ['/apis', { kind: 'groups-root' }],
    ['/apis/apps', { kind: 'group', group: 'apps' }],
    ['/api/v1', { kind: 'group-version', group: '', version: 'v1' }],
    ['/apis/apps/v1', { kind: 'group-version', group: 'apps', version: 'v1' }],
    ['/version', { kind: 'version' }],
    ['/openapi/v3', { kind: 'openapi-v3-index' }],
    ['/openapi/v2', { kind: 'openapi-v2' }],
    ['/openapi/v3/api/v1', { kind: 'openapi-v3-doc', group: '', version: 'v1' }],
    ['/openapi/v3/apis/apps/v1', { kind: 'openapi-v3-doc', group: 'apps', version: 'v1' }],
    ['/api/v1/namespaces', { kind: 'resource', group: '', version: 'v1', resource: 'namespaces' }],
    [
      '/api/v1/namespaces/x',
      { kind: 'resource', group: '', version: 'v1', resource: 'namespaces', name: 'x' },
    ],
    [
      '/api/v1/namespaces/x/status',
      {
        kind: 'resource',
        group: '',
        version: 'v1',
        resource: 'namespaces',
        name: 'x',
        subresource: 'status',
      },
    ],
    [
      '/api/v1/namespaces/x/configmaps',
      { kind: 'resource', group: '', version: 'v1', resource: 'configmaps', namespace: 'x' },
    ],
    [
      '/api/v1/namespaces/x/configmaps/c',
      {
        kind: 'resource',
        group: '',
        version: 'v1',
        resource: 'configmaps',
        namespace: 'x',
        name: 'c',
      },
    ],
    [
      '/apis/apps/v1/namespaces/x/deployments/d/status',
      {
        kind: 'resource',
        group: 'apps',
        version: 'v1',
        resource: 'deployments',
        namespace: 'x',
        name: 'd',
        subresource: 'status',
      },
    ],
    [
      '/apis/apps/v1/deployments',
      { kind: 'resource', group: 'apps', version: 'v1', resource: 'deployments' },
    ],
    [
      '/apis/edge.kcp.io/v1alpha1/edgeplacements/p',
      {
        kind: 'resource',
        group: 'edge.kcp.io',
        version: 'v1alpha1',
        resource: 'edgeplacements',
        name: 'p',
      },
    ],
    ['/apis/apps/v1/namespaces/x/deployments/d/status/extra', { kind: 'unknown' }],
    ['/foo', { kind: 'unknown' }],
    ['/openapi/v4', { kind: 'unknown' }],
  ])('%s', (path, want) => {
    expect(parseRequestPath(path)).toEqual(want)
  })
})

describe('formatResourcePath and apiVersion helpers', () => {
  it('round-trips through parseRequestPath', () => {
    const p = { group: 'apps', version: 'v1', resource: 'deployments', namespace: 'ns', name: 'd' }
    expect(formatResourcePath(p)).toBe('/apis/apps/v1/namespaces/ns/deployments/d')
    expect(parseRequestPath(formatResourcePath(p))).toEqual({ kind: 'resource', ...p })
  })
  it('formats the core group without a group segment', () => {
    expect(formatResourcePath({ group: '', version: 'v1', resource: 'namespaces' })).toBe(
      '/api/v1/namespaces'
    )
    expect(apiVersionOf('', 'v1')).toBe('v1')
    expect(apiVersionOf('apps', 'v1')).toBe('apps/v1')
    expect(parseApiVersion('v1')).toEqual({ group: '', version: 'v1' })
    expect(parseApiVersion('edge.kcp.io/v1alpha1')).toEqual({
      group: 'edge.kcp.io',
      version: 'v1alpha1',
    })
  })
})
