/**
 * One rule against one request, as kube's RuleAllows: wildcards, subresources (`pods/log`,
 * `*\/status`), resourceNames, non-resource URLs with and without a trailing `*`, and that
 * resource rules and non-resource rules never stand in for each other.
 */
import { describe, expect, it } from 'vitest'
import { ruleAllows } from '../../../lib/rbac/rule-match.ts'
import type { Attributes } from '../../../lib/rbac/types.ts'

const res = (verb: string, resource: string, more: Partial<Attributes> = {}): Attributes =>
  ({ resourceRequest: true, verb, apiGroup: '', resource, ...more }) as Attributes

describe('ruleAllows', () => {
  it('matches verbs, groups and resources exactly or by *', () => {
    const rule = { verbs: ['get', 'list'], apiGroups: ['apps'], resources: ['deployments'] }
    expect(ruleAllows(rule, res('get', 'deployments', { apiGroup: 'apps' }))).toBe(true)
    expect(ruleAllows(rule, res('delete', 'deployments', { apiGroup: 'apps' }))).toBe(false)
    expect(ruleAllows(rule, res('get', 'deployments'))).toBe(false)
    expect(ruleAllows(rule, res('get', 'replicasets', { apiGroup: 'apps' }))).toBe(false)
    const all = { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }
    expect(
      ruleAllows(all, res('escalate', 'clusterroles', { apiGroup: 'rbac.authorization.k8s.io' }))
    ).toBe(true)
  })

  it('names subresources as resource/sub; * and */sub reach them, the bare resource does not', () => {
    const pods = { verbs: ['get'], apiGroups: [''], resources: ['pods'] }
    expect(ruleAllows(pods, res('get', 'pods', { subresource: 'log' }))).toBe(false)
    const log = { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }
    expect(ruleAllows(log, res('get', 'pods', { subresource: 'log' }))).toBe(true)
    expect(ruleAllows(log, res('get', 'pods'))).toBe(false)
    const anyStatus = { verbs: ['update'], apiGroups: ['*'], resources: ['*/status'] }
    expect(ruleAllows(anyStatus, res('update', 'nodes', { subresource: 'status' }))).toBe(true)
    expect(ruleAllows(anyStatus, res('update', 'nodes'))).toBe(false)
  })

  it('limits to resourceNames when given; a request without a name does not match them', () => {
    const rule = { verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['a'] }
    expect(ruleAllows(rule, res('get', 'secrets', { name: 'a' }))).toBe(true)
    expect(ruleAllows(rule, res('get', 'secrets', { name: 'b' }))).toBe(false)
    expect(ruleAllows(rule, res('get', 'secrets'))).toBe(false)
  })

  it('matches non-resource URLs exactly or by a trailing *, and only for non-resource requests', () => {
    const rule = { verbs: ['get'], nonResourceURLs: ['/apis/*', '/version'] }
    const path = (p: string): Attributes => ({ resourceRequest: false, verb: 'get', path: p })
    expect(ruleAllows(rule, path('/version'))).toBe(true)
    expect(ruleAllows(rule, path('/version/x'))).toBe(false)
    expect(ruleAllows(rule, path('/apis/apps/v1'))).toBe(true)
    expect(ruleAllows(rule, path('/api'))).toBe(false)
    expect(ruleAllows(rule, res('get', 'pods'))).toBe(false)
    const resources = { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }
    expect(ruleAllows(resources, path('/version'))).toBe(false)
  })
})
