/**
 * Edge leases in the key-value store, over dynalite: one entry per SyncTarget in a namespace per
 * inventory space; a space's leases are listed together and no other space's; a value no release
 * wrote reads as never renewed; dropping is repeatable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  dropLease,
  leaseNamespace,
  leasesOf,
  readLease,
  writeLease,
} from '../../../lib/edge/lease.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'

let store: TestStore
beforeAll(async () => {
  store = await createTestStore()
})
afterAll(() => store.close())

const U1 = '0f8fad5b-d9cb-469f-a165-70867728950e'
const U2 = '7c9e6679-7425-40de-944b-e07fc1f90ae7'

describe('edge leases', () => {
  it('stores, reads and lists the leases of one inventory space only', async () => {
    expect(await readLease(store.kv, 'inv1', U1)).toBeUndefined()
    await writeLease(store.kv, 'inv1', U1, { renewedAt: 1000, statusAt: 900 })
    await writeLease(store.kv, 'inv1', U2, { renewedAt: 2000, statusAt: 0 })
    await writeLease(store.kv, 'inv2', U1, { renewedAt: 3000, statusAt: 3000 })
    expect(await readLease(store.kv, 'inv1', U1)).toEqual({ renewedAt: 1000, statusAt: 900 })
    expect(await leasesOf(store.kv, 'inv1')).toEqual(
      new Map([
        [U1, 1000],
        [U2, 2000],
      ])
    )
    expect(await leasesOf(store.kv, 'inv2')).toEqual(new Map([[U1, 3000]]))
    expect(await leasesOf(store.kv, 'inv3')).toEqual(new Map())
  })

  it('renews by overwriting, whatever was stored', async () => {
    await writeLease(store.kv, 'inv1', U1, { renewedAt: 5000, statusAt: 900 })
    expect(await readLease(store.kv, 'inv1', U1)).toEqual({ renewedAt: 5000, statusAt: 900 })
  })

  it('reads a value it does not understand as never renewed', async () => {
    await store.kv.put(leaseNamespace('inv4'), U1, { renewedAt: 'yesterday', statusAt: null })
    await store.kv.put(leaseNamespace('inv4'), U2, 42)
    expect(await readLease(store.kv, 'inv4', U1)).toEqual({ renewedAt: 0, statusAt: 0 })
    expect(await leasesOf(store.kv, 'inv4')).toEqual(
      new Map([
        [U1, 0],
        [U2, 0],
      ])
    )
  })

  it('drops a lease, and dropping again is no error', async () => {
    await dropLease(store.kv, 'inv1', U2)
    await dropLease(store.kv, 'inv1', U2)
    expect(await readLease(store.kv, 'inv1', U2)).toBeUndefined()
    expect([...(await leasesOf(store.kv, 'inv1')).keys()]).toEqual([U1])
  })
})
