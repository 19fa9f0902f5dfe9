/**
 * Hostile Token creates: bad names, spaces, types and expiries are 422 with the field named; bad
 * bodies, Strict unknown fields, finalizers and owner references are refused; oversized bodies
 * are 413; unknown spec fields are pruned (with a warning) when not strict. Nothing is issued.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
beforeAll(async () => {
  hub = await createTestHub()
})
afterAll(() => hub.close())

const TOKENS = '/apis/auth.edgeplane.io/v1alpha1/tokens'

function tokenBody(name: string, spec: Record<string, unknown>, metadata = {}) {
  return {
    apiVersion: 'auth.edgeplane.io/v1alpha1',
    kind: 'Token',
    metadata: { name, ...metadata },
    spec,
  }
}

describe('hostile Token requests', () => {
  const refused = async (body: unknown, status: number, query = '', contentType?: string) => {
    const res = await hub.call(
      'POST',
      `${TOKENS}${query}`,
      body,
      contentType ? { contentType } : {}
    )
    expect(res.status, JSON.stringify(res.body)).toBe(status)
    expect(res.body.kind).toBe('Status')
    return res.body
  }

  it('refuses bad names', async () => {
    await refused(tokenBody('Bad_Name', { spaces: ['root'] }), 422)
    await refused(tokenBody('x'.repeat(300), { spaces: ['root'] }), 422)
    await refused(tokenBody('', { spaces: ['root'] }), 400)
    await refused(tokenBody('ok', { spaces: ['root'], user: 'system:admin' }), 422)
    await refused(tokenBody('ok', { spaces: ['root'], user: 'edge:m1' }), 422)
    await refused(tokenBody('ok', { spaces: ['root'], user: 'a b' }), 422)
    await refused(tokenBody('ok', { spaces: ['root'], groups: ['system:masters'] }), 422)
  })

  it('refuses bad spaces', async () => {
    for (const spaces of [
      [],
      ['team-a'],
      ['root:Team'],
      ['root:*:x'],
      ['*'],
      [''],
      ['root:'],
      ['root::a'],
      ['root:a/b'],
      [1],
      Array.from({ length: 65 }, (_, i) => `root:s${i}`),
    ]) {
      const body = await refused(tokenBody('spacey', { spaces }), 422)
      expect(body.details.causes[0].field).toMatch(/^spec\.spaces/)
    }
    await refused(tokenBody('spacey', { spaces: 'root' }), 422)
    await refused(tokenBody('spacey', {}), 422)
    await refused(tokenBody('spacey', { type: 'admin', spaces: ['root'] }), 422)
    await refused(tokenBody('spacey', { type: 'edge', spaces: ['root'] }), 422)
    expect((await hub.call('GET', `${TOKENS}/spacey`)).status).toBe(404)
  })

  it('refuses expiries in the past, too short, too long or not whole seconds', async () => {
    for (const expirationSeconds of [-1, 0, 599, 31536001, 1e12, 3600.5, '3600']) {
      const body = await refused(tokenBody('exp', { spaces: ['root'], expirationSeconds }), 422)
      expect(JSON.stringify(body.details.causes)).toContain('spec.expirationSeconds')
    }
  })

  it('refuses finalizers, owner references, unknown fields (Strict) and bad bodies', async () => {
    await refused(tokenBody('fin', { spaces: ['root'] }, { finalizers: ['x.io/f'] }), 422)
    const owner = {
      ownerReferences: [{ apiVersion: 'v1', kind: 'Namespace', name: 'default', uid: 'u' }],
    }
    await refused(tokenBody('own', { spaces: ['root'] }, owner), 422)
    await refused(
      tokenBody('strict', { spaces: ['root'], spaec: 1 }),
      400,
      '?fieldValidation=Strict'
    )
    await refused([], 400)
    await refused('{"kind": ', 400)
    await refused({ ...tokenBody('k', { spaces: ['root'] }), kind: 'Secret' }, 400)
    await refused(tokenBody('huge', { spaces: ['root'], user: 'u'.repeat(4 * 1024 * 1024) }), 413)
    await refused(tokenBody('big', { spaces: ['root'], groups: ['g'.repeat(300)] }), 422)
  })

  it('prunes unknown spec fields when not strict', async () => {
    const res = await hub.call('POST', TOKENS, tokenBody('warned', { spaces: ['root'], extra: 1 }))
    expect(res.status).toBe(201)
    expect(res.body.spec.extra).toBeUndefined()
    expect(res.headers.get('warning')).toContain('unknown field')
  })

  it('issued nothing while refusing', async () => {
    const list = await hub.call('GET', TOKENS)
    expect(list.body.items.map((i: any) => i.metadata.name)).toEqual(['warned'])
    expect((await hub.store.kv.list('tokens')).length).toBe(2)
  })
})
