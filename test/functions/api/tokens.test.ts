/**
 * Tokens through the hub API (`auth.edgeplane.io/v1alpha1` in root): issue answers the token once
 * and stores only its hash; the token reaches its spaces and nothing else; delete revokes (one
 * and a collection); expiry refuses and forgets; only admins manage tokens; Tables print them.
 * Hostile bodies are in tokens-hostile.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashToken } from '../../../lib/auth/tokens.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
beforeAll(async () => {
  hub = await createTestHub()
  for (const name of ['team-a', 'team-b', 'org'])
    await hub.call('POST', WS, {
      apiVersion: 'tenancy.kcp.io/v1alpha1',
      kind: 'Workspace',
      metadata: { name },
    })
  await hub.call('POST', `/clusters/root:org${WS}`, {
    apiVersion: 'tenancy.kcp.io/v1alpha1',
    kind: 'Workspace',
    metadata: { name: 'x' },
  })
})
afterAll(() => hub.close())

const WS = '/apis/tenancy.kcp.io/v1alpha1/workspaces'
const TOKENS = '/apis/auth.edgeplane.io/v1alpha1/tokens'
const NAMESPACES = '/api/v1/namespaces'
const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json'

function tokenBody(name: string, spec: Record<string, unknown>, metadata = {}) {
  return {
    apiVersion: 'auth.edgeplane.io/v1alpha1',
    kind: 'Token',
    metadata: { name, ...metadata },
    spec,
  }
}

async function issue(name: string, spec: Record<string, unknown>): Promise<string> {
  const res = await hub.call('POST', TOKENS, tokenBody(name, spec))
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.status.token as string
}

const reach = async (token: string, space: string) =>
  (await hub.call('GET', `/clusters/${space}${NAMESPACES}`, undefined, { token })).status

describe('the Token resource', () => {
  it('is served in root only, with the verbs of an immutable resource', async () => {
    const root = await hub.call('GET', '/apis/auth.edgeplane.io/v1alpha1')
    expect(root.status).toBe(200)
    const tokens = root.body.resources.find((r: any) => r.name === 'tokens')
    expect(tokens).toMatchObject({ kind: 'Token', namespaced: false })
    expect(tokens.verbs).not.toContain('update')
    expect(tokens.verbs).not.toContain('patch')
    expect(
      (await hub.call('GET', '/clusters/root:team-a/apis/auth.edgeplane.io/v1alpha1')).status
    ).toBe(404)
    expect((await hub.call('GET', `/clusters/root:team-a${TOKENS}`)).status).toBe(404)
  })

  it('answers the token once and stores only its hash', async () => {
    const before = hub.deps.now().getTime()
    const res = await hub.call('POST', TOKENS, tokenBody('alice', { spaces: ['root:team-a'] }))
    expect(res.status).toBe(201)
    const token = res.body.status.token as string
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(res.body.status.tokenHash).toBe(await hashToken(token))
    expect(res.body.spec).toEqual({
      user: 'alice',
      type: 'user',
      spaces: ['root:team-a'],
      groups: [],
      expirationSeconds: 2592000,
    })
    const expires = Date.parse(res.body.status.expirationTimestamp)
    expect(expires).toBeGreaterThanOrEqual(before + 2592000 * 1000 - 1000)
    expect(expires).toBeLessThanOrEqual(hub.deps.now().getTime() + 2592000 * 1000)
    const got = await hub.call('GET', `${TOKENS}/alice`)
    expect(got.status).toBe(200)
    expect(got.body.status.token).toBeUndefined()
    const stored = await hub.store.objects.get({
      cluster: 'root',
      group: 'auth.edgeplane.io',
      resource: 'tokens',
      namespace: '',
      name: 'alice',
    })
    expect(JSON.stringify(stored)).not.toContain(token)
    const list = await hub.call('GET', TOKENS)
    expect(JSON.stringify(list.body)).not.toContain(token)
    expect(list.body.items.map((i: any) => i.metadata.name)).toContain('alice')
  })

  it('reaches its spaces (and subtrees) only', async () => {
    const token = await issue('bob', { spaces: ['root:team-a', 'root:org:*'], groups: ['devs'] })
    expect(await reach(token, 'root:team-a')).toBe(200)
    expect(await reach(token, 'root:org:x')).toBe(200)
    expect(await reach(token, 'root:team-b')).toBe(403)
    expect(await reach(token, 'root:org')).toBe(403)
    expect(await reach(token, 'root')).toBe(403)
    expect(
      (await hub.call('GET', '/clusters/*/api/v1/namespaces', undefined, { token })).status
    ).toBe(403)
    const whoami = await hub.call(
      'POST',
      '/clusters/root:team-b/apis/authentication.k8s.io/v1/selfsubjectreviews',
      { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      { token }
    )
    expect(whoami.body.status.userInfo.username).toBe('bob')
    expect(whoami.body.status.userInfo.groups).toContain('devs')
  })

  it('issues admin tokens that reach everything, tokens included', async () => {
    const token = await issue('ops', { type: 'admin', user: 'ops-team', expirationSeconds: 3600 })
    expect(await reach(token, 'root:team-b')).toBe(200)
    expect((await hub.call('GET', TOKENS, undefined, { token })).status).toBe(200)
  })

  it('lets only admins see or manage tokens', async () => {
    await hub.mintToken('root-user', ['root'])
    const token = 'root-user'
    expect((await hub.call('GET', TOKENS, undefined, { token })).status).toBe(403)
    expect((await hub.call('GET', `${TOKENS}/alice`, undefined, { token })).status).toBe(403)
    const create = await hub.call('POST', TOKENS, tokenBody('mine', { spaces: ['root'] }), {
      token,
    })
    expect(create.status).toBe(403)
    expect(create.body.kind).toBe('Status')
    expect((await hub.call('DELETE', `${TOKENS}/alice`, undefined, { token })).status).toBe(403)
    expect((await hub.call('GET', `${TOKENS}/alice`)).status).toBe(200)
    const scoped = await issue('carol', { spaces: ['root:team-a'] })
    expect((await hub.call('GET', TOKENS, undefined, { token: scoped })).status).toBe(403)
  })

  it('revokes a token when it is deleted', async () => {
    const token = await issue('dave', { spaces: ['root:team-a'] })
    expect(await reach(token, 'root:team-a')).toBe(200)
    const del = await hub.call('DELETE', `${TOKENS}/dave`)
    expect(del.status).toBe(200)
    expect(await reach(token, 'root:team-a')).toBe(401)
    expect((await hub.call('GET', `${TOKENS}/dave`)).status).toBe(404)
  })

  it('revokes every token a collection delete removes, and no other', async () => {
    const labelled = { labels: { team: 'gone' } }
    const a = await hub.call('POST', TOKENS, tokenBody('gone-1', { spaces: ['root'] }, labelled))
    const b = await hub.call('POST', TOKENS, tokenBody('gone-2', { spaces: ['root'] }, labelled))
    const keep = await issue('kept', { spaces: ['root'] })
    const del = await hub.call('DELETE', `${TOKENS}?labelSelector=team%3Dgone`)
    expect(del.status).toBe(200)
    expect(del.body.items).toHaveLength(2)
    expect(await reach(a.body.status.token, 'root')).toBe(401)
    expect(await reach(b.body.status.token, 'root')).toBe(401)
    expect(await reach(keep, 'root')).toBe(200)
  })

  it('refuses an expired token and forgets its record', async () => {
    const token = await issue('short', { spaces: ['root'], expirationSeconds: 600 })
    expect(await reach(token, 'root')).toBe(200)
    const realNow = hub.deps.now
    hub.deps.now = () => new Date(realNow().getTime() + 601_000)
    try {
      expect(await reach(token, 'root')).toBe(401)
    } finally {
      hub.deps.now = realNow
    }
    expect(await hub.store.kv.get('tokens', await hashToken(token))).toBeUndefined()
    expect(await reach(token, 'root')).toBe(401)
    const table = await hub.call('GET', `${TOKENS}/short`, undefined, { accept: TABLE_ACCEPT })
    expect(table.body.rows[0].cells[4]).toMatch(/^\d+m/)
  })

  it('is immutable: update and patch are 405', async () => {
    const put = await hub.call('PUT', `${TOKENS}/alice`, tokenBody('alice', { spaces: ['root'] }))
    expect(put.status).toBe(405)
    const patch = await hub.call('PATCH', `${TOKENS}/alice`, '{"spec":{"spaces":["root"]}}', {
      contentType: 'application/merge-patch+json',
    })
    expect(patch.status).toBe(405)
    expect((await hub.call('GET', `${TOKENS}/alice/status`)).status).toBe(404)
  })

  it('ignores a status sent by the client', async () => {
    const adminHash = await hashToken('test-admin-token')
    const res = await hub.call('POST', TOKENS, {
      ...tokenBody('sneaky', { spaces: ['root'] }),
      status: { tokenHash: adminHash },
    })
    expect(res.status).toBe(201)
    expect(res.body.status.tokenHash).not.toBe(adminHash)
    expect((await hub.call('DELETE', `${TOKENS}/sneaky`)).status).toBe(200)
    expect((await hub.call('GET', TOKENS)).status).toBe(200)
  })

  it('issues nothing on dryRun', async () => {
    const res = await hub.call(
      'POST',
      `${TOKENS}?dryRun=All`,
      tokenBody('dry', { spaces: ['root'] })
    )
    expect(res.status).toBe(201)
    expect(res.body.status.token).toBeUndefined()
    expect((await hub.call('GET', `${TOKENS}/dry`)).status).toBe(404)
    expect(await hub.store.kv.get('tokens', res.body.status.tokenHash)).toBeUndefined()
  })

  it('names a token from generateName, the user defaulting to the name', async () => {
    const res = await hub.call('POST', TOKENS, {
      apiVersion: 'auth.edgeplane.io/v1alpha1',
      kind: 'Token',
      metadata: { generateName: 'ci-' },
      spec: { spaces: ['root:team-b'] },
    })
    expect(res.status).toBe(201)
    expect(res.body.metadata.name).toMatch(/^ci-[a-z0-9]{5}$/)
    expect(res.body.spec.user).toBe(res.body.metadata.name)
    expect(await reach(res.body.status.token, 'root:team-b')).toBe(200)
  })

  it('prints user, type, spaces, expiry and groups in Tables, as in the cross-space view', async () => {
    const res = await hub.call('GET', TOKENS, undefined, { accept: TABLE_ACCEPT })
    expect(res.body.kind).toBe('Table')
    expect(res.body.columnDefinitions.map((c: any) => c.name)).toEqual([
      'Name',
      'User',
      'Type',
      'Spaces',
      'Expires',
      'Age',
      'Groups',
    ])
    const bob = res.body.rows.find((r: any) => r.cells[0] === 'bob')
    expect(bob.cells.slice(1, 4)).toEqual(['bob', 'user', 'root:team-a,root:org:*'])
    expect(bob.cells[4]).toMatch(/^(29|30)d$/)
    expect(bob.cells[6]).toBe('devs')
    const ops = res.body.rows.find((r: any) => r.cells[0] === 'ops')
    expect(ops.cells.slice(1, 4)).toEqual(['ops-team', 'admin', '*'])
    const all = await hub.call('GET', `/clusters/*${TOKENS}`)
    expect(all.body.items.map((i: any) => i.metadata.name)).toContain('bob')
  })
})
