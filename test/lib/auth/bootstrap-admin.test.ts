/**
 * Rotation of the bootstrap admin token against a real (dynalite) store: the first token is
 * recorded, a new one revokes the old, repeats and concurrent starts agree, a retired token is
 * never taken back, a failed revocation throws and is retried, and admin records of a store that
 * predates the record are retired on first use.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  BOOTSTRAP_ADMIN,
  bootstrapAdminRecord,
  ensureBootstrapAdmin,
} from '../../../lib/auth/bootstrap-admin.ts'
import { authenticate, hashToken, registerToken } from '../../../lib/auth/tokens.ts'
import type { KvStore } from '../../../lib/store/types.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'

let store: TestStore
beforeAll(async () => {
  store = await createTestStore()
})
afterAll(() => store.close())

/** A fresh store namespace per test: the same table, a kv that prefixes every namespace. */
function isolatedKv(prefix: string, over: Partial<KvStore> = {}): KvStore {
  const kv = store.kv
  return {
    get: (ns, key) => kv.get(`${prefix}/${ns}`, key),
    getMany: (ns, keys) => kv.getMany(`${prefix}/${ns}`, keys),
    put: (ns, key, value, v) => kv.put(`${prefix}/${ns}`, key, value, v),
    swap: (ns, key, value) => kv.swap(`${prefix}/${ns}`, key, value),
    delete: (ns, key, v) => kv.delete(`${prefix}/${ns}`, key, v),
    list: (ns, p) => kv.list(`${prefix}/${ns}`, p),
    ...over,
  }
}

async function status(kv: KvStore, token: string): Promise<number> {
  try {
    await authenticate(kv, `Bearer ${token}`)
    return 200
  } catch (e) {
    return (e as { code?: number }).code ?? 500
  }
}

describe('ensureBootstrapAdmin', () => {
  it('records the first token, then keeps it across restarts', async () => {
    const kv = isolatedKv('first')
    expect(await ensureBootstrapAdmin(kv, 'token-a')).toBe('registered')
    expect(await status(kv, 'token-a')).toBe(200)
    expect(await ensureBootstrapAdmin(kv, 'token-a')).toBe('current')
    const record = await bootstrapAdminRecord(kv)
    expect(record?.hash).toBe(await hashToken('token-a'))
    expect(JSON.stringify(record)).not.toContain('token-a')
  })

  it('revokes the previous token when the token changes, and never takes it back', async () => {
    const kv = isolatedKv('rotate')
    await ensureBootstrapAdmin(kv, 'old-token')
    expect(await status(kv, 'old-token')).toBe(200)
    expect(await ensureBootstrapAdmin(kv, 'new-token')).toBe('rotated')
    expect(await status(kv, 'old-token')).toBe(401)
    expect(await status(kv, 'new-token')).toBe(200)
    expect((await bootstrapAdminRecord(kv))?.pending).toEqual([])
    // a stale start with the old value (an isolate of the previous deployment)
    expect(await ensureBootstrapAdmin(kv, 'old-token')).toBe('retired')
    expect(await status(kv, 'old-token')).toBe(401)
    expect(await status(kv, 'new-token')).toBe(200)
  })

  it('lets concurrent starts with the same new token agree on one rotation', async () => {
    const kv = isolatedKv('same')
    await ensureBootstrapAdmin(kv, 'before')
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, () => ensureBootstrapAdmin(kv, 'after'))
    )
    expect(outcomes.filter((o) => o === 'rotated')).toHaveLength(1)
    expect(outcomes.every((o) => o === 'rotated' || o === 'current')).toBe(true)
    expect(await status(kv, 'before')).toBe(401)
    expect(await status(kv, 'after')).toBe(200)
  })

  it('leaves exactly one valid token when two new tokens race', async () => {
    const kv = isolatedKv('race')
    await ensureBootstrapAdmin(kv, 'base')
    await Promise.all([ensureBootstrapAdmin(kv, 'left'), ensureBootstrapAdmin(kv, 'right')])
    const valid = []
    for (const t of ['base', 'left', 'right']) if ((await status(kv, t)) === 200) valid.push(t)
    expect(valid).toHaveLength(1)
    expect(valid[0]).not.toBe('base')
    expect((await bootstrapAdminRecord(kv))?.hash).toBe(await hashToken(valid[0] ?? ''))
  })

  it('throws when the old token cannot be revoked, and finishes on the next start', async () => {
    const kv = isolatedKv('fail')
    await ensureBootstrapAdmin(kv, 'stuck-old')
    const failing = isolatedKv('fail', {
      delete: async () => {
        throw new Error('store unavailable')
      },
    })
    await expect(ensureBootstrapAdmin(failing, 'stuck-new')).rejects.toThrow('store unavailable')
    expect((await bootstrapAdminRecord(kv))?.pending).toEqual([await hashToken('stuck-old')])
    expect(await ensureBootstrapAdmin(kv, 'stuck-new')).toBe('current')
    expect(await status(kv, 'stuck-old')).toBe(401)
    expect((await bootstrapAdminRecord(kv))?.pending).toEqual([])
  })

  it('re-registers its principal when the record is missing', async () => {
    const kv = isolatedKv('missing')
    await ensureBootstrapAdmin(kv, 'lost')
    await kv.delete('tokens', await hashToken('lost'))
    expect(await ensureBootstrapAdmin(kv, 'lost')).toBe('current')
    expect((await kv.get('tokens', await hashToken('lost')))?.value).toEqual(BOOTSTRAP_ADMIN)
  })

  it('retires admin records written before the record existed, and nothing else', async () => {
    const kv = isolatedKv('legacy')
    await registerToken(kv, 'legacy-1', BOOTSTRAP_ADMIN)
    await registerToken(kv, 'legacy-2', BOOTSTRAP_ADMIN)
    await registerToken(kv, 'issued-admin', { ...BOOTSTRAP_ADMIN, token: 'ops' })
    await registerToken(kv, 'a-user', { name: 'admin', kind: 'user', spaces: ['root'] })
    expect(await ensureBootstrapAdmin(kv, 'legacy-2')).toBe('registered')
    expect(await status(kv, 'legacy-1')).toBe(401)
    expect(await status(kv, 'legacy-2')).toBe(200)
    expect(await status(kv, 'issued-admin')).toBe(200)
    expect(await status(kv, 'a-user')).toBe(200)
  })
})
