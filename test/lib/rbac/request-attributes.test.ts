/**
 * HTTP requests as the authorizer sees them: verbs from method and path, watches, collections
 * (deletecollection), subresources, a Namespace by name in itself, names from a metadata.name
 * field selector, and non-resource paths.
 */
import { describe, expect, it } from 'vitest'
import type { ResourcePath } from '../../../lib/kube/request-path.ts'
import { nonResourceAttributes, resourceAttributes } from '../../../lib/rbac/request-attributes.ts'

const path = (more: Partial<ResourcePath>): ResourcePath => ({
  kind: 'resource',
  group: '',
  version: 'v1',
  resource: 'pods',
  ...more,
})
const verb = (method: string, p: ResourcePath, watch = false) =>
  resourceAttributes(method, p, { watch }).verb

describe('resourceAttributes', () => {
  it('maps methods to kube verbs', () => {
    const one = path({ namespace: 'a', name: 'x' })
    const all = path({ namespace: 'a' })
    expect(verb('GET', one)).toBe('get')
    expect(verb('GET', all)).toBe('list')
    expect(verb('GET', all, true)).toBe('watch')
    expect(verb('GET', path({ name: 'x', watch: true }))).toBe('watch')
    expect(verb('POST', all)).toBe('create')
    expect(verb('PUT', one)).toBe('update')
    expect(verb('PATCH', one)).toBe('patch')
    expect(verb('DELETE', one)).toBe('delete')
    expect(verb('DELETE', all)).toBe('deletecollection')
  })

  it('carries subresources, names from a name field selector, and a Namespace in itself', () => {
    expect(
      resourceAttributes('PUT', path({ namespace: 'a', name: 'x', subresource: 'status' }), {
        watch: false,
      })
    ).toMatchObject({ resource: 'pods', subresource: 'status', namespace: 'a', name: 'x' })
    expect(
      resourceAttributes('GET', path({ namespace: 'a' }), {
        watch: true,
        fieldSelector: 'metadata.name=x',
      }).name
    ).toBe('x')
    expect(
      resourceAttributes('GET', path({ resource: 'namespaces', name: 'a' }), { watch: false })
    ).toMatchObject({ namespace: 'a', name: 'a' })
  })
})

describe('nonResourceAttributes', () => {
  it('lowercases the method', () => {
    expect(nonResourceAttributes('GET', '/apis')).toEqual({
      resourceRequest: false,
      verb: 'get',
      path: '/apis',
    })
  })
})
