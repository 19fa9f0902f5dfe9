/**
 * route-class: kube verbs and route classes from method, path and content type, with label values
 * from bounded sets only: built-in resources by name, everything else `custom`, no space, namespace
 * or object name; a path that does not parse is `invalid`, never an exception.
 */
import { describe, expect, it } from 'vitest'
import { classifyRequest } from '../../../lib/metrics/route-class.ts'

const c = (method: string, path: string, type?: string) =>
  classifyRequest(method, new URL(`http://hub${path}`), type)

describe('classifyRequest', () => {
  it.for<[method: string, path: string, verb: string, route: string, resource: string]>([
    ['GET', '/api/v1/namespaces/a/pods', 'list', 'resource', 'core/pods'],
    [
      'GET',
      '/clusters/root:org/api/v1/namespaces/a/pods?watch=1',
      'watch',
      'resource',
      'core/pods',
    ],
    ['GET', '/api/v1/namespaces/a/pods?watch=false', 'list', 'resource', 'core/pods'],
    ['GET', '/api/v1/watch/namespaces/a/pods/p', 'watch', 'resource', 'core/pods'],
    ['GET', '/apis/apps/v1/namespaces/a/deployments/web', 'get', 'resource', 'apps/deployments'],
    ['POST', '/apis/apps/v1/namespaces/a/deployments', 'create', 'resource', 'apps/deployments'],
    [
      'PUT',
      '/apis/apps/v1/namespaces/a/deployments/web/status',
      'update',
      'resource',
      'apps/deployments/status',
    ],
    [
      'PATCH',
      '/apis/apps/v1/namespaces/a/deployments/web/scale',
      'patch',
      'resource',
      'apps/deployments/scale',
    ],
    [
      'GET',
      '/apis/apps/v1/namespaces/a/deployments/web/whatever',
      'get',
      'resource',
      'apps/deployments/other',
    ],
    [
      'DELETE',
      '/api/v1/namespaces/a/configmaps',
      'deletecollection',
      'resource',
      'core/configmaps',
    ],
    ['DELETE', '/api/v1/namespaces/a/configmaps/x', 'delete', 'resource', 'core/configmaps'],
    ['GET', '/apis/example.com/v1/namespaces/a/widgets/w', 'get', 'resource', 'custom'],
    ['GET', '/apis/apps/v1/namespaces/a/my-own-plural', 'list', 'resource', 'custom'],
    [
      'GET',
      '/apis/edge.kcp.io/v1alpha1/synctargets',
      'list',
      'resource',
      'edge.kcp.io/synctargets',
    ],
    ['GET', '/apis', 'get', 'discovery', ''],
    ['GET', '/clusters/root:x/api/v1', 'get', 'discovery', ''],
    ['GET', '/openapi/v3/apis/apps/v1', 'get', 'openapi', ''],
    ['GET', '/version', 'get', 'version', ''],
    ['GET', '/metrics', 'get', 'metrics', ''],
    ['POST', '/hooks/translate', 'post', 'hooks', ''],
    ['GET', '/edge/v1/mailboxes/abc-mb-1/desired', 'get', 'edge-desired', ''],
    ['POST', '/edge/v1/mailboxes/abc-mb-1/reports', 'post', 'edge-reports', ''],
    ['POST', '/edge/v1/bootstrap', 'post', 'edge-bootstrap', ''],
    ['GET', '/edge/v1/mailboxes/abc-mb-1/secret-thing', 'get', 'edge-other', ''],
    ['GET', '/something/else', 'get', 'other', ''],
    ['GET', '/api/v1/namespaces/%zz/pods', 'get', 'invalid', ''],
    ['BREW', '/api/v1/namespaces', 'other', 'resource', 'core/namespaces'],
  ])('%s %s is %s %s %s', ([method, path, verb, route, resource]) => {
    expect(c(method, path)).toEqual({ verb, route, resource })
  })

  it('tells server-side apply from other patches', () => {
    const p = '/api/v1/namespaces/a/configmaps/x'
    expect(c('PATCH', p, 'application/apply-patch+yaml').verb).toBe('apply')
    expect(c('PATCH', p, 'application/merge-patch+json').verb).toBe('patch')
  })
})
