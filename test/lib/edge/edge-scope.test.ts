import { describe, expect, it } from 'vitest'
import type { Principal } from '../../../lib/auth/tokens.ts'
import {
  authorizeMailbox,
  authorizeRoute,
  edgeMailboxOf,
  edgePrincipal,
} from '../../../lib/edge/edge-scope.ts'
import { isApiError } from '../../../lib/errors.ts'

const MB = 'abc123-mb-0f8fad5b-d9cb-469f-a165-70867728950e'
const OTHER = 'abc123-mb-7c9e6679-7425-40de-944b-e07fc1f90ae7'
const edge = edgePrincipal(MB)
const admin: Principal = { name: 'admin', kind: 'admin', spaces: [] }
const user: Principal = { name: 'u', kind: 'user', spaces: ['root:*'] }

function outcome(p: Principal, path: string): number {
  try {
    authorizeRoute(p, path)
    return 200
  } catch (e) {
    if (isApiError(e)) return e.code
    throw e
  }
}

describe('edgePrincipal / edgeMailboxOf', () => {
  it('round-trips the mailbox and refuses other principals', () => {
    expect(edge).toEqual({ name: `edge:${MB}`, kind: 'edge', spaces: [`root:espw:${MB}`] })
    expect(edgeMailboxOf(edge)).toBe(MB)
    expect(edgeMailboxOf(user)).toBeUndefined()
    expect(edgeMailboxOf({ ...edge, spaces: ['root:espw:*'] })).toBeUndefined()
    expect(edgeMailboxOf({ ...edge, spaces: ['root:other:x'] })).toBeUndefined()
    expect(edgeMailboxOf({ ...edge, spaces: [`root:espw:${MB}`, 'root'] })).toBeUndefined()
  })
})

describe('authorizeRoute', () => {
  it.each([
    [edge, `/edge/v1/mailboxes/${MB}/desired`, 200],
    [edge, `/edge/v1/mailboxes/${MB}/reports`, 200],
    [edge, `/edge/v1/mailboxes/${OTHER}/desired`, 403],
    [edge, `/edge/v1/mailboxes/${MB}%2F..%2F${OTHER}/desired`, 403],
    [edge, `/edge/v1/mailboxes/${MB}x/desired`, 403],
    [edge, '/edge/v1/bootstrap', 403],
    [edge, '/edge/v1', 403],
    [edge, '/clusters/root/api/v1/namespaces', 403],
    [edge, `/clusters/root:espw:${MB}/api/v1/configmaps`, 403],
    [edge, '/hooks/translate', 403],
    [edge, '/api', 403],
    [user, `/edge/v1/mailboxes/${MB}/desired`, 403],
    [user, '/edge/v1/bootstrap', 403],
    [user, '/clusters/root/api/v1/namespaces', 200],
    [user, '/edge/v1x', 200],
    [admin, `/edge/v1/mailboxes/${OTHER}/desired`, 200],
    [admin, '/edge/v1/bootstrap', 200],
  ] as const)('%o on %s → %i', (p, path, code) => {
    expect(outcome(p, path)).toBe(code)
  })
  it('says why in the Status', () => {
    try {
      authorizeRoute(edge, '/clusters/root/api/v1/namespaces')
      expect.unreachable()
    } catch (e) {
      expect(isApiError(e) && e.message).toContain(`may only call /edge/v1/mailboxes/${MB}/`)
    }
  })
})

describe('authorizeMailbox', () => {
  it('lets the mailbox own credential and admins through', () => {
    expect(() => authorizeMailbox(edge, MB)).not.toThrow()
    expect(() => authorizeMailbox(admin, OTHER)).not.toThrow()
    expect(() => authorizeMailbox(edge, OTHER)).toThrow(/cannot use mailbox/)
    expect(() => authorizeMailbox(user, MB)).toThrow(/cannot use mailbox/)
  })
})
