/**
 * Token records and authentication against a real (dynalite) store: expiry (also for a cached
 * principal), lazy removal of an expired record, revocation by hash, the header grammar, and the
 * cache: trusted for minutes while the credentials epoch stands, dropped when another process
 * revokes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  authenticate,
  hashToken,
  isExpired,
  type Principal,
  registerToken,
  revokeTokenHash,
  TOKEN_TRUST_MS,
  TOKEN_TRUST_SPREAD_MS,
  trustMsOf,
} from '../../../lib/auth/tokens.ts'
import { createDynamoStore } from '../../../lib/store/dynamo-store.ts'
import { EPOCH_MAX_AGE_MS } from '../../../lib/store/epochs.ts'
import type { KvStore } from '../../../lib/store/types.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'

let store: TestStore
beforeAll(async () => {
  store = await createTestStore()
})
afterAll(() => store.close())

const NOW = Date.parse('2030-01-01T00:00:00Z')
const user = (expiresAt?: string): Principal => ({
  name: 'u',
  kind: 'user',
  spaces: ['root'],
  ...(expiresAt ? { expiresAt } : {}),
})

/** Another process's key-value store over the same table, its reads counted (tokens apart). */
function countedKv() {
  const kv = createDynamoStore({ client: store.client, tableName: store.tableName }).kv
  const gets = { n: 0, tokens: 0 }
  const wrapped: KvStore = {
    ...kv,
    get: (ns, key) => {
      gets.n++
      if (ns === 'tokens') gets.tokens++
      return kv.get(ns, key)
    },
  }
  return { kv: wrapped, gets }
}

async function code(header: string | undefined, now = NOW): Promise<number> {
  try {
    await authenticate(store.kv, header, now)
    return 200
  } catch (e) {
    return (e as { code?: number }).code ?? 500
  }
}

describe('the token cache and the credentials epoch', () => {
  it('trusts a cached token past the short cache time while nothing was revoked anywhere', async () => {
    const { kv, gets } = countedKv()
    await registerToken(store.kv, 'steady', user())
    const t0 = Date.now()
    await authenticate(kv, 'Bearer steady', t0)
    const first = gets.n
    const trust = trustMsOf(await hashToken('steady'))
    // Every 15 s for as long as it is trusted: one epoch read per poll at most, never the record...
    const polls = Math.floor((trust - 1) / 15_000)
    expect(polls).toBeGreaterThanOrEqual(31)
    for (let i = 1; i <= polls; i++) await authenticate(kv, 'Bearer steady', t0 + i * 15_000)
    expect(gets.tokens).toBe(1)
    expect(gets.n - first).toBeLessThanOrEqual(polls)
    // ...until its trust has passed since it was read.
    await authenticate(kv, 'Bearer steady', t0 + trust)
    expect(gets.tokens).toBe(2)
  })

  it('spreads the trust of tokens over the last TOKEN_TRUST_SPREAD_MS of TOKEN_TRUST_MS', async () => {
    const trusts = await Promise.all(
      Array.from({ length: 400 }, async (_, i) => trustMsOf(await hashToken(`edge-${i}`)))
    )
    expect(Math.max(...trusts)).toBeLessThanOrEqual(TOKEN_TRUST_MS)
    expect(Math.min(...trusts)).toBeGreaterThan(TOKEN_TRUST_MS - TOKEN_TRUST_SPREAD_MS)
    // 400 tokens read at once come due over most of the spread, in every quarter of it
    const quarters = new Set(
      trusts.map((t) => Math.floor(((TOKEN_TRUST_MS - t) / TOKEN_TRUST_SPREAD_MS) * 4))
    )
    expect(quarters).toEqual(new Set([0, 1, 2, 3]))
    expect(trustMsOf(await hashToken('edge-1'))).toBe(trusts[1])
  })

  it('keeps the tokens of a 10,000-edge fleet, its admins and some more, all in use, without re-reading', async () => {
    // in memory: the cache's bound is the question here, not the store
    const entries = new Map<string, { value: unknown; version: number }>()
    let tokenReads = 0
    const kv = {
      get: async (ns: string, key: string) => {
        if (ns === 'tokens') tokenReads++
        return entries.get(`${ns}/${key}`)
      },
      put: async (ns: string, key: string, value: unknown) => {
        entries.set(`${ns}/${key}`, { value, version: 1 })
        return 1
      },
    } as unknown as KvStore
    const tokens = Array.from({ length: 12_000 }, (_, i) => `fleet-${i}`)
    for (const t of tokens) await registerToken(kv, t, user())
    const t0 = Date.now()
    for (const t of tokens) await authenticate(kv, `Bearer ${t}`, t0)
    expect(tokenReads).toBe(12_000)
    for (const t of tokens) await authenticate(kv, `Bearer ${t}`, t0 + 60_000)
    expect(tokenReads).toBe(12_000)
  })

  it('refuses a token revoked by another process once it read the moved epoch', async () => {
    const { kv } = countedKv()
    await registerToken(store.kv, 'revoked-elsewhere', user())
    const t0 = Date.now()
    expect(await authenticate(kv, 'Bearer revoked-elsewhere', t0)).toMatchObject({ name: 'u' })
    await revokeTokenHash(store.kv, await hashToken('revoked-elsewhere'))
    await expect(
      authenticate(kv, 'Bearer revoked-elsewhere', t0 + EPOCH_MAX_AGE_MS + 1)
    ).rejects.toMatchObject({ code: 401 })
  })
})

describe('isExpired', () => {
  it('is false without expiry, true at and after it, and true when unreadable', () => {
    expect(isExpired(user(), NOW)).toBe(false)
    expect(isExpired(user('2030-01-01T00:00:01Z'), NOW)).toBe(false)
    expect(isExpired(user('2030-01-01T00:00:00Z'), NOW)).toBe(true)
    expect(isExpired(user('not a time'), NOW)).toBe(true)
  })
})

describe('authenticate', () => {
  it('accepts a token until it expires, then refuses it even when cached, and forgets it', async () => {
    await registerToken(store.kv, 'expiring', user('2030-01-01T01:00:00Z'))
    expect(await code('Bearer expiring')).toBe(200)
    expect(await code('Bearer expiring', NOW + 3_600_000)).toBe(401)
    expect(await store.kv.get('tokens', await hashToken('expiring'))).toBeUndefined()
    expect(await code('Bearer expiring')).toBe(401)
  })

  it('refuses a cached token at once when it expires within the cache time', async () => {
    await registerToken(store.kv, 'edge-of-time', user('2030-01-01T00:00:05Z'))
    expect(await code('Bearer edge-of-time')).toBe(200)
    expect(await code('Bearer edge-of-time', NOW + 5_000)).toBe(401)
  })

  it('refuses a revoked token at once in this process', async () => {
    await registerToken(store.kv, 'revoked', user())
    expect(await code('Bearer revoked')).toBe(200)
    await revokeTokenHash(store.kv, await hashToken('revoked'))
    expect(await code('Bearer revoked')).toBe(401)
  })

  it('needs a well-formed bearer header', async () => {
    await registerToken(store.kv, 'fine', user())
    expect(await code('Bearer fine')).toBe(200)
    expect(await code(undefined)).toBe(401)
    expect(await code('Basic fine')).toBe(401)
    expect(await code('Bearer fine extra')).toBe(401)
    expect(await code('Bearer ')).toBe(401)
  })
})
