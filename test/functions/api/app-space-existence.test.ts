/**
 * No existence oracle (functions/api/app.ts, issue 35): a scoped token gets the same 403 for a
 * space it cannot reach whether the space exists or not, by path and by id, on every kind of path
 * (resources, discovery) and for writes; a path within its reach that does not exist is 404;
 * admins get 404 for a missing space; a self review in an unreachable space answers `allowed:
 * false` from the name alone, for an existing and a missing space alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
let hiddenId: string
const WS = '/apis/tenancy.kcp.io/v1alpha1/workspaces'
const ws = (name: string) => ({
  apiVersion: 'tenancy.kcp.io/v1alpha1',
  kind: 'Workspace',
  metadata: { name },
})

beforeAll(async () => {
  hub = await createTestHub()
  for (const name of ['team-a', 'team-b'])
    expect((await hub.call('POST', `/clusters/root${WS}`, ws(name))).status).toBe(201)
  const hidden = await hub.call('POST', `/clusters/root:team-b${WS}`, ws('hidden'))
  expect(hidden.status).toBe(201)
  hiddenId = hidden.body.spec.cluster
  await hub.mintToken('team-a', ['root:team-a:*', 'root:team-a'])
})
afterAll(() => hub.close())

const asA = (method: string, path: string, body?: unknown) =>
  hub.call(method, path, body, { token: 'team-a' })

/** Status code, reason and message with the space's name taken out. */
const answer = async (method: string, ref: string, rest: string, body?: unknown) => {
  const res = await asA(method, `/clusters/${ref}${rest}`, body)
  return {
    status: res.status,
    reason: res.body.reason,
    message: String(res.body.message).replaceAll(ref, '<space>'),
  }
}

describe('a space a token cannot reach', () => {
  const reads = ['/api/v1/namespaces', '/api/v1/namespaces/default/configmaps/x', '/api', '/apis']

  it.each(reads)('answers 403 for %s alike, existing or not, by path', async (rest) => {
    const existing = await answer('GET', 'root:team-b:hidden', rest)
    const missing = await answer('GET', 'root:team-b:nowhere', rest)
    expect(existing).toEqual({
      status: 403,
      reason: 'Forbidden',
      message: 'user "user-team-a" cannot access workspace "<space>"',
    })
    expect(missing).toEqual(existing)
  })

  it('answers 403 alike by id, naming only the id it was given', async () => {
    const existing = await asA('GET', `/clusters/${hiddenId}/api/v1/namespaces`)
    const missing = await asA('GET', '/clusters/zzzzzzzzzzzzzzzz/api/v1/namespaces')
    expect(existing.status).toBe(403)
    expect(missing.status).toBe(403)
    expect(existing.body.message).toBe(`user "user-team-a" cannot access workspace "${hiddenId}"`)
    expect(existing.body.message).not.toContain('root:team-b')
    expect(missing.body.message).toBe(
      'user "user-team-a" cannot access workspace "zzzzzzzzzzzzzzzz"'
    )
  })

  it('answers 403 alike for a write', async () => {
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' } }
    const existing = await answer('POST', 'root:team-b:hidden', '/api/v1/namespaces', ns)
    const missing = await answer('POST', 'root:team-b:gone', '/api/v1/namespaces', ns)
    expect(existing.status).toBe(403)
    expect(missing).toEqual(existing)
  })

  it('answers a self review from the name alone', async () => {
    const review = {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: { verb: 'get', resource: 'configmaps' } },
    }
    const path = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews'
    const existing = await answer('POST', 'root:team-b:hidden', path, review)
    const missing = await answer('POST', 'root:team-b:nowhere', path, review)
    expect(existing.status).toBe(201)
    expect(missing).toEqual(existing)
    const byId = await asA('POST', `/clusters/${hiddenId}${path}`, review)
    expect(byId.status).toBe(201)
    expect(byId.body.status).toEqual({
      allowed: false,
      reason: `user token "user-team-a" does not reach workspace ${hiddenId}`,
    })
  })
})

describe('a space within reach, and admins', () => {
  it('is 404 for a missing path within the token reach, 200 for its own', async () => {
    expect((await asA('GET', '/clusters/root:team-a:nowhere/api/v1/namespaces')).status).toBe(404)
    expect((await asA('GET', '/clusters/root:team-a/api/v1/namespaces')).status).toBe(200)
  })

  it('is 404 for an admin asking for a missing space, by path or id', async () => {
    const byPath = await hub.call('GET', '/clusters/root:team-b:nowhere/api/v1/namespaces')
    expect(byPath.status).toBe(404)
    expect(byPath.body.reason).toBe('NotFound')
    expect((await hub.call('GET', '/clusters/zzzzzzzzzzzzzzzz/api/v1/namespaces')).status).toBe(404)
    expect((await hub.call('GET', `/clusters/${hiddenId}/api/v1/namespaces`)).status).toBe(200)
  })
})
