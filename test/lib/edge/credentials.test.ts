import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { authenticate, type Principal } from '../../../lib/auth/tokens.ts'
import {
  EDGE_CREDENTIALS_NS,
  edgeCredentialRecord,
  issueEdgeCredential,
} from '../../../lib/edge/credentials.ts'
import { isApiError } from '../../../lib/errors.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'

let store: TestStore
beforeAll(async () => {
  store = await createTestStore()
})
afterAll(() => store.close())

const mb = (n: number) => `abc${n}-mb-0f8fad5b-d9cb-469f-a165-70867728950e`

async function status(token: string): Promise<number> {
  try {
    await authenticate(store.kv, `Bearer ${token}`)
    return 200
  } catch (e) {
    if (isApiError(e)) return e.code
    throw e
  }
}

/** Edge principals registered for `mailbox` in the token store. */
async function tokensOf(mailbox: string): Promise<number> {
  const all = await store.kv.list<Principal>('tokens')
  return all.filter((e) => e.value.name === `edge:${mailbox}`).length
}

describe('issueEdgeCredential', () => {
  it('registers an edge principal for the mailbox and records only its hash', async () => {
    const issued = await issueEdgeCredential(store.kv, mb(1), new Date('2025-01-02T03:04:05.678Z'))
    expect(issued).toMatchObject({ mailbox: mb(1), issuedAt: '2025-01-02T03:04:05Z' })
    const p = await authenticate(store.kv, `Bearer ${issued.token}`)
    expect(p).toEqual({ name: `edge:${mb(1)}`, kind: 'edge', spaces: [`root:espw:${mb(1)}`] })
    const record = await edgeCredentialRecord(store.kv, mb(1))
    expect(record).toMatchObject({ revoke: [] })
    expect(record?.hash).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(record)).not.toContain(issued.token)
  })

  it('rotates: issuing again revokes the previous token (401), also one cached here', async () => {
    const first = await issueEdgeCredential(store.kv, mb(2))
    expect(await status(first.token)).toBe(200) // now cached in this process
    const second = await issueEdgeCredential(store.kv, mb(2))
    expect(await status(first.token)).toBe(401)
    expect(await status(second.token)).toBe(200)
    expect(await tokensOf(mb(2))).toBe(1)
    expect((await edgeCredentialRecord(store.kv, mb(2)))?.revoke).toEqual([])
  })

  it('leaves exactly one valid token when issuers race', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () => issueEdgeCredential(store.kv, mb(3)))
    )
    const won = results.filter((r) => r.status === 'fulfilled')
    for (const r of results)
      if (r.status === 'rejected') expect(isApiError(r.reason) && r.reason.code).toBe(409)
    expect(won.length).toBeGreaterThan(0)
    expect(await tokensOf(mb(3))).toBe(1)
    const valid = []
    for (const r of won) if ((await status(r.value.token)) === 200) valid.push(r.value.token)
    expect(valid).toHaveLength(1)
  })

  it('revokes hashes left over by an interrupted rotation, and replaces an unreadable record', async () => {
    const old = await issueEdgeCredential(store.kv, mb(5))
    const entry = await store.kv.get<{ hash: string; issuedAt: string }>(EDGE_CREDENTIALS_NS, mb(5))
    // As if a rotation claimed the slot for a new hash and stopped before revoking the old one.
    const claimed = { hash: 'f'.repeat(64), issuedAt: 'x', revoke: [entry?.value.hash] }
    await store.kv.put(EDGE_CREDENTIALS_NS, mb(5), claimed, entry?.version)
    expect(await status(old.token)).toBe(200)
    const next = await issueEdgeCredential(store.kv, mb(5))
    expect(await status(old.token)).toBe(401)
    expect(await status(next.token)).toBe(200)
    await store.kv.put(EDGE_CREDENTIALS_NS, mb(6), { nonsense: true })
    const fresh = await issueEdgeCredential(store.kv, mb(6))
    expect(await status(fresh.token)).toBe(200)
  })

  it('without rotate, refuses a mailbox that has a credential (409, cause rotate) and writes nothing', async () => {
    const first = await issueEdgeCredential(store.kv, mb(7), new Date('2026-03-04T05:06:07Z'), {
      rotate: false,
    })
    const before = await store.kv.get(EDGE_CREDENTIALS_NS, mb(7))
    const refused = await issueEdgeCredential(store.kv, mb(7), new Date(), {
      rotate: false,
      syncTarget: 'tulip',
    }).catch((e: unknown) => e)
    expect(isApiError(refused) && refused.toStatus()).toMatchObject({
      code: 409,
      reason: 'Conflict',
      details: { kind: 'EdgeCredential', causes: [{ field: 'rotate' }] },
    })
    expect(String((refused as Error).message)).toContain(
      'SyncTarget "tulip" already has an edge credential (issued 2026-03-04T05:06:07Z)'
    )
    expect(await store.kv.get(EDGE_CREDENTIALS_NS, mb(7))).toEqual(before)
    expect(await status(first.token)).toBe(200)
    expect(await tokensOf(mb(7))).toBe(1)
    const rotated = await issueEdgeCredential(store.kv, mb(7), new Date(), { rotate: true })
    expect(await status(first.token)).toBe(401)
    expect(await status(rotated.token)).toBe(200)
  })

  it('without rotate, lets one of several racing first issues win and refuses the others', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () =>
        issueEdgeCredential(store.kv, mb(8), new Date(), { rotate: false })
      )
    )
    const won = results.filter((r) => r.status === 'fulfilled')
    expect(won).toHaveLength(1)
    for (const r of results)
      if (r.status === 'rejected') expect(isApiError(r.reason) && r.reason.code).toBe(409)
    expect(await tokensOf(mb(8))).toBe(1)
  })
})
