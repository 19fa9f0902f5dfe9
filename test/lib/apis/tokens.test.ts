import { describe, expect, it } from 'vitest'
import { openApiSchemaFor } from '../../../lib/apis/by-kind.ts'
import { categoryOf } from '../../../lib/apis/categories.ts'
import { isTokenResource, TOKEN_INFO } from '../../../lib/apis/tokens.ts'
import { createRegistry } from '../../../lib/kube/registry.ts'
import { isWatchedResource } from '../../../lib/relay/watch-targets.ts'

describe('the Token kind', () => {
  it('is an immutable cluster-scoped resource of root only', () => {
    expect(TOKEN_INFO).toMatchObject({
      group: 'auth.edgeplane.io',
      kind: 'Token',
      namespaced: false,
    })
    expect(TOKEN_INFO.verbs).toEqual([
      'create',
      'delete',
      'deletecollection',
      'get',
      'list',
      'watch',
    ])
    expect(TOKEN_INFO.subresources.status).toBe(false)
    expect(createRegistry([]).byResource('auth.edgeplane.io', 'tokens')).toBeUndefined()
    expect(createRegistry([], [TOKEN_INFO]).byResource('auth.edgeplane.io', 'tokens')).toBe(
      TOKEN_INFO
    )
    expect(isTokenResource({ ...TOKEN_INFO, source: 'crd' })).toBe(false)
  })

  it('never goes to an edge nor wakes the relay', () => {
    expect(categoryOf('auth.edgeplane.io', 'tokens')).toBe('not-for-edge')
    expect(isWatchedResource('auth.edgeplane.io', 'tokens')).toBe(false)
  })

  it('has an OpenAPI schema naming its spec and status fields', () => {
    const schema = openApiSchemaFor('auth.edgeplane.io', 'Token') as any
    expect(Object.keys(schema.properties.spec.properties).sort()).toEqual([
      'expirationSeconds',
      'groups',
      'spaces',
      'type',
      'user',
    ])
    expect(Object.keys(schema.properties.status.properties).sort()).toEqual([
      'expirationTimestamp',
      'token',
      'tokenHash',
    ])
  })
})
