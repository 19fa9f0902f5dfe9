/**
 * Token records and authentication against a real (dynalite) store: expiry (also for a cached
 * principal), lazy removal of an expired record, revocation by hash, and the header grammar.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  authenticate,
  hashToken,
  isExpired,
  type Principal,
  registerToken,
  revokeTokenHash,
} from '../../../lib/auth/tokens.ts'
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

async function code(header: string | undefined, now = NOW): Promise<number> {
  try {
    await authenticate(store.kv, header, now)
    return 200
  } catch (e) {
    return (e as { code?: number }).code ?? 500
  }
}

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
