/**
 * Edge leases in the key-value store, over dynalite: one entry per SyncTarget in a namespace per
 * inventory space; a renewal answers the renewal before it; a space's leases are listed together
 * and no other space's; a value no release wrote reads as never renewed; dropping is repeatable;
 * each edge's status-refresh windows are five minutes long and start at its own offset. A renewal
 * records the agent's version and poll interval in the same request, a renewal without them
 * leaves none, and a space's leases read whole with them — leases written before them included;
 * so is how the agent's last poll went (mode, hold asked, time), each field read back only when
 * valid.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  dropLease,
  edgeRecordsOf,
  HEARTBEAT_STATUS_MS,
  leaseNamespace,
  leasesOf,
  readLease,
  renewLease,
  statusWindow,
} from '../../../lib/edge/lease.ts'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'

const counter = createRequestCounter()
let store: TestStore
beforeAll(async () => {
  store = await createTestStore({ counter })
})
afterAll(() => store.close())

const U1 = '0f8fad5b-d9cb-469f-a165-70867728950e'
const U2 = '7c9e6679-7425-40de-944b-e07fc1f90ae7'

describe('edge leases', () => {
  it('renews in one request, answering the renewal before', async () => {
    expect(await readLease(store.kv, 'inv1', U1)).toBeUndefined()
    counter.reset()
    expect(await renewLease(store.kv, 'inv1', U1, 1000)).toBeUndefined()
    expect(await renewLease(store.kv, 'inv1', U1, 5000)).toEqual({ renewedAt: 1000 })
    expect(counter.snapshot()).toEqual({ UpdateItem: 2 })
    expect(await readLease(store.kv, 'inv1', U1)).toEqual({ renewedAt: 5000 })
  })

  it('lists the leases of one inventory space only', async () => {
    await renewLease(store.kv, 'inv1', U2, 2000)
    await renewLease(store.kv, 'inv2', U1, 3000)
    expect(await leasesOf(store.kv, 'inv1')).toEqual(
      new Map([
        [U1, 5000],
        [U2, 2000],
      ])
    )
    expect(await leasesOf(store.kv, 'inv2')).toEqual(new Map([[U1, 3000]]))
    expect(await leasesOf(store.kv, 'inv3')).toEqual(new Map())
  })

  it('reads a value it does not understand as never renewed', async () => {
    await store.kv.put(leaseNamespace('inv4'), U1, { renewedAt: 'yesterday' })
    await store.kv.put(leaseNamespace('inv4'), U2, 42)
    expect(await readLease(store.kv, 'inv4', U1)).toEqual({ renewedAt: 0 })
    expect(await renewLease(store.kv, 'inv4', U2, 9000)).toEqual({ renewedAt: 0 })
    expect(await leasesOf(store.kv, 'inv4')).toEqual(
      new Map([
        [U1, 0],
        [U2, 9000],
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

describe("the agent's version and poll interval", () => {
  const agent = { version: '0.1.0', pollIntervalSeconds: 15 }

  it('are written by the renewal itself and answered with the lease', async () => {
    counter.reset()
    expect(await renewLease(store.kv, 'inv5', U1, { nowMs: 1000, agent })).toBeUndefined()
    const slow = { version: '0.2.0-rc.1+g1f2e3d', pollIntervalSeconds: 0.5 }
    expect(await renewLease(store.kv, 'inv5', U1, { nowMs: 2000, agent: slow })).toEqual({
      renewedAt: 1000,
      agentVersion: '0.1.0',
      pollIntervalSeconds: 15,
    })
    expect(counter.snapshot()).toEqual({ UpdateItem: 2 })
    expect(await readLease(store.kv, 'inv5', U1)).toEqual({
      renewedAt: 2000,
      agentVersion: '0.2.0-rc.1+g1f2e3d',
      pollIntervalSeconds: 0.5,
    })
  })

  it('are gone after a renewal by an agent that says nothing', async () => {
    await renewLease(store.kv, 'inv5', U2, { nowMs: 3000, agent })
    await renewLease(store.kv, 'inv5', U2, { nowMs: 4000 })
    const lease = await readLease(store.kv, 'inv5', U2)
    expect(lease).toEqual({ renewedAt: 4000 })
    expect(Object.keys(lease ?? {})).toEqual(['renewedAt'])
  })

  it("read a whole space's leases in one Query, old ones and odd fields included", async () => {
    const U3 = '16fd2706-8baf-433b-82eb-8c7fada847da'
    const U4 = '886313e1-3b8a-5372-9b90-0c9aee199e5d'
    // written by a release before the agent fields, and with fields no release wrote
    await store.kv.put(leaseNamespace('inv5'), U3, { renewedAt: 5000 })
    await store.kv.put(leaseNamespace('inv5'), U4, {
      renewedAt: 6000,
      agentVersion: 'x'.repeat(65),
      pollIntervalSeconds: -1,
    })
    counter.reset()
    const records = await edgeRecordsOf(store.kv, 'inv5')
    expect(counter.snapshot()).toEqual({ Query: 1 })
    expect(records).toEqual(
      new Map([
        [U1, { renewedAt: 2000, agentVersion: '0.2.0-rc.1+g1f2e3d', pollIntervalSeconds: 0.5 }],
        [U2, { renewedAt: 4000 }],
        [U3, { renewedAt: 5000 }],
        [U4, { renewedAt: 6000 }],
      ])
    )
    expect(Object.keys(records.get(U4) ?? {})).toEqual(['renewedAt'])
    expect(await leasesOf(store.kv, 'inv5')).toEqual(
      new Map([
        [U1, 2000],
        [U2, 4000],
        [U3, 5000],
        [U4, 6000],
      ])
    )
    expect(await edgeRecordsOf(store.kv, 'inv6')).toEqual(new Map())
  })
})

describe("how the agent's last poll went", () => {
  const U5 = 'a8098c1a-f86e-11da-bd1a-00112444be1e'
  const U6 = '6fa459ea-ee8a-3ca4-894e-db77e160355e'
  const held = {
    version: '0.3.0',
    pollIntervalSeconds: 15,
    pollMode: 'held' as const,
    holdSeconds: 300,
    lastPollAt: '2031-01-01T00:04:05.678Z',
  }

  it('is written with the renewal and read back', async () => {
    await renewLease(store.kv, 'inv7', U5, { nowMs: 7000, agent: held })
    const plain = { ...held, pollMode: 'plain' as const, holdSeconds: 0 }
    expect(await renewLease(store.kv, 'inv7', U5, { nowMs: 8000, agent: plain })).toEqual({
      renewedAt: 7000,
      agentVersion: '0.3.0',
      pollIntervalSeconds: 15,
      pollMode: 'held',
      holdSeconds: 300,
      lastPollAt: '2031-01-01T00:04:05.678Z',
    })
    expect(await readLease(store.kv, 'inv7', U5)).toMatchObject({
      renewedAt: 8000,
      pollMode: 'plain',
      holdSeconds: 0,
    })
  })

  it('reads each field only when valid; a lease without them reads without', async () => {
    await store.kv.put(leaseNamespace('inv7'), U6, {
      renewedAt: 9000,
      agentVersion: '0.2.0',
      pollIntervalSeconds: 15,
      pollMode: 'fast',
      holdSeconds: 1000,
      lastPollAt: 'yesterday',
    })
    expect(await readLease(store.kv, 'inv7', U6)).toEqual({
      renewedAt: 9000,
      agentVersion: '0.2.0',
      pollIntervalSeconds: 15,
    })
    await store.kv.put(leaseNamespace('inv7'), U6, { ...held, renewedAt: 9500, holdSeconds: 1.5 })
    // the agent's own field names are no lease's: only renewedAt and the valid poll fields read
    expect(await readLease(store.kv, 'inv7', U6)).toEqual({
      renewedAt: 9500,
      pollIntervalSeconds: 15,
      pollMode: 'held',
      lastPollAt: '2031-01-01T00:04:05.678Z',
    })
  })
})

describe('statusWindow', () => {
  it('moves once every HEARTBEAT_STATUS_MS, at an offset of its own per edge', () => {
    const T = Date.parse('2031-01-01T00:00:00Z')
    const changes = (uid: string) => {
      const at: number[] = []
      for (let t = T; t < T + 3 * HEARTBEAT_STATUS_MS; t += 1000)
        if (statusWindow(uid, t) !== statusWindow(uid, t - 1000)) at.push(t)
      return at
    }
    for (const uid of [U1, U2]) {
      const at = changes(uid)
      expect(at).toHaveLength(3)
      expect(at[1]! - at[0]!).toBe(HEARTBEAT_STATUS_MS)
    }
    // 1,000 edges' offsets spread over the window, not bunched in one minute of it
    const minutes = new Set<number>()
    for (let i = 0; i < 1000; i++) {
      const uid = `00000000-0000-4000-8000-${i.toString().padStart(12, '0')}`
      const first = changes(uid)[0]! - T
      minutes.add(Math.floor(first / 60_000))
    }
    expect(minutes.size).toBe(HEARTBEAT_STATUS_MS / 60_000)
  })
})
