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

describe('dot-segment and unsafe names (kube ValidatePathSegmentName)', () => {
  it.each([
    ['/api/v1/namespaces/x/configmaps/%2e%2e', 'Name parameter invalid: "..": may not be \'..\''],
    ['/api/v1/namespaces/x/configmaps/%2E', 'Name parameter invalid: ".": may not be \'.\''],
    ['/api/v1/namespaces/x/configmaps/.%2e', "may not be '..'"],
    ['/api/v1/namespaces/x/configmaps/..', "may not be '..'"],
    ['/api/v1/namespaces/x/configmaps/.', "may not be '.'"],
    [
      '/api/v1/namespaces/%2e%2e/configmaps',
      'Namespace parameter invalid: "..": may not be \'..\'',
    ],
    ['/api/v1/namespaces/./configmaps/c', 'Namespace parameter invalid: ".": may not be \'.\''],
    ['/api/v1/namespaces/..', 'Name parameter invalid: "..": may not be \'..\''],
    ['/api/v1/namespaces/%2e%2e/status', "may not be '..'"],
    ['/apis/apps/v1/namespaces/x/deployments/%2e%2e/status', "may not be '..'"],
    ['/api/v1/namespaces/x/configmaps/a%2Fb', "may not contain '/'"],
    ['/api/v1/namespaces/x/configmaps/a%25b', "may not contain '%'"],
    ['/api/v1/watch/namespaces/x/configmaps/..', "may not be '..'"],
  ])('%s is 400 BadRequest', (path, message) => {
    expect(() => parseRequestPath(path)).toThrow(
      expect.objectContaining({
        code: 400,
        reason: 'BadRequest',
        message: expect.stringContaining(message),
      })
    )
  })

  it.each([
    '/clusters/%2e%2e/api/v1/namespaces',
    '/clusters/../api/v1/namespaces',
    '/clusters/./api',
    '/clusters/root%2Fx/api',
  ])('space %s is 400 BadRequest, never root', (path) => {
    expect(() => splitClusterPrefix(path)).toThrow(
      expect.objectContaining({
        code: 400,
        message: expect.stringContaining('Workspace parameter invalid'),
      })
    )
  })

  it('keeps names that merely contain dots', () => {
    expect(parseRequestPath('/api/v1/namespaces/x/configmaps/a..b')).toMatchObject({ name: 'a..b' })
    expect(parseRequestPath('/api/v1/namespaces/x/configmaps/...')).toMatchObject({ name: '...' })
  })
})

describe('legacy watch paths', () => {
  const cm = { kind: 'resource', group: '', version: 'v1', resource: 'configmaps', watch: true }
  it.each([
    ['/api/v1/watch/configmaps', cm],
    ['/api/v1/watch/namespaces/x/configmaps', { ...cm, namespace: 'x' }],
    ['/api/v1/watch/namespaces/x/configmaps/c', { ...cm, namespace: 'x', name: 'c' }],
    [
      '/api/v1/watch/namespaces',
      { kind: 'resource', group: '', version: 'v1', resource: 'namespaces', watch: true },
    ],
    [
      '/api/v1/watch/namespaces/x',
      {
        kind: 'resource',
        group: '',
        version: 'v1',
        resource: 'namespaces',
        name: 'x',
        watch: true,
      },
    ],
    [
      '/apis/apps/v1/watch/namespaces/x/deployments/d',
      {
        kind: 'resource',
        group: 'apps',
        version: 'v1',
        resource: 'deployments',
        namespace: 'x',
        name: 'd',
        watch: true,
      },
    ],
    [
      '/apis/edge.kcp.io/v1alpha1/watch/edgeplacements',
      {
        kind: 'resource',
        group: 'edge.kcp.io',
        version: 'v1alpha1',
        resource: 'edgeplacements',
        watch: true,
      },
    ],
    ['/api/v1/watch', { kind: 'unknown' }],
    ['/api/v1/watch/namespaces/x/configmaps/c/status', { kind: 'unknown' }],
    ['/apis/apps/v1/watch/namespaces/x/deployments/d/scale', { kind: 'unknown' }],
  ])('%s', (path, want) => {
    expect(parseRequestPath(path)).toEqual(want)
  })
})
