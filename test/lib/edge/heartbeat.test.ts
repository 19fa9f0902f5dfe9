/**
 * Liveness in two records: each heartbeat renews the edge's lease (one read and one put in the
 * key-value store, no object write), and the SyncTarget's status.lastSyncerHeartbeatTime is
 * written when the edge comes back and refreshed when five minutes old; a warm process skips
 * duplicate reports without a request; a SyncTarget that is gone gets no lease.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { applyReport, parseReport } from '../../../lib/edge/apply-report.ts'
import { recordHeartbeat } from '../../../lib/edge/heartbeat.ts'
import { HEARTBEAT_STATUS_MS, leaseNamespace, readLease } from '../../../lib/edge/lease.ts'
import type { HubDeps } from '../../../lib/hub/deps.ts'
import type { HeartbeatMemo } from '../../../lib/hub/hub-caches.ts'
import { parseMailboxName } from '../../../lib/reconcile/keys.ts'
import { STALE_AFTER_MS } from '../../../lib/summarize/liveness.ts'
import { createEdgeFixture, type EdgeFixture } from './edge-fixture.ts'

let f: EdgeFixture
let clock = Date.parse('2031-05-06T07:08:09Z')
let deps: HubDeps
let uid: string
beforeAll(async () => {
  f = await createEdgeFixture()
  deps = { ...f.deps, now: () => new Date(clock) }
  uid = parseMailboxName(f.mailbox.name)?.syncTargetUid ?? ''
})
afterAll(() => f.close())

const syncTarget = async () => (await f.call('GET', f.syncTargetPath)).body
const lease = () => readLease(f.deps.kv, f.inventory.id, uid)
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z')

describe('heartbeat', () => {
  it('writes the status once, then renews only the lease until the status is five minutes old', async () => {
    const memo: HeartbeatMemo = new Map()
    const env = { ...f.env, deps, heartbeats: memo }
    const beat = () => applyReport(env, f.mailbox, parseReport({ kind: 'Report', heartbeat: true }))
    const t0 = clock
    expect(await beat()).toEqual({ kind: 'ReportResult', accepted: 0, rejected: [] })
    const first = await syncTarget()
    expect(first.status.lastSyncerHeartbeatTime).toBe(iso(t0))
    const fields = first.metadata.managedFields.map((m: any) => [m.manager, m.subresource])
    expect(fields).toContainEqual(['edge-heartbeat', 'status'])
    expect(await lease()).toEqual({ renewedAt: t0, statusAt: t0 })

    clock += 20_000
    f.counter.reset()
    await beat()
    expect(f.counter.total()).toBe(0) // a duplicate report: not even a read
    // a beat a minute: the lease is renewed (one read, one write), the SyncTarget untouched
    for (let k = 1; k * 60_000 < HEARTBEAT_STATUS_MS; k++) {
      clock = t0 + k * 60_000
      f.counter.reset()
      expect(await recordHeartbeat(deps, f.mailbox.name, memo)).toBe('renewed')
      expect(f.counter.snapshot()).toEqual({ GetItem: 1, UpdateItem: 1 })
      expect(await lease()).toEqual({ renewedAt: clock, statusAt: t0 })
    }
    expect((await syncTarget()).metadata.resourceVersion).toBe(first.metadata.resourceVersion)
    clock = t0 + HEARTBEAT_STATUS_MS
    expect(await recordHeartbeat(deps, f.mailbox.name, memo)).toBe('written')
    const second = await syncTarget()
    expect(second.status.lastSyncerHeartbeatTime).toBe(iso(clock))
    expect(second.metadata.resourceVersion).not.toBe(first.metadata.resourceVersion)
    expect(await lease()).toEqual({ renewedAt: clock, statusAt: clock })
  })

  it('writes the status at once when the edge comes back after STALE_AFTER_MS of silence', async () => {
    const memo: HeartbeatMemo = new Map()
    clock += 60_000
    expect(await recordHeartbeat(deps, f.mailbox.name, memo)).toBe('renewed')
    const before = (await syncTarget()).status.lastSyncerHeartbeatTime
    clock += STALE_AFTER_MS // silent: the status is younger than five minutes, the lease is stale
    expect(clock - Date.parse(before)).toBeLessThan(HEARTBEAT_STATUS_MS)
    expect(await recordHeartbeat(deps, f.mailbox.name, memo)).toBe('written')
    expect((await syncTarget()).status.lastSyncerHeartbeatTime).toBe(iso(clock))
  })

  it('lets another process renew with one read and one write, learning the name only when due', async () => {
    const memo: HeartbeatMemo = new Map()
    clock += 60_000
    f.counter.reset()
    expect(await recordHeartbeat(deps, f.mailbox.name, memo)).toBe('renewed')
    expect(f.counter.snapshot()).toEqual({ GetItem: 1, UpdateItem: 1 })
    expect(memo.get(f.mailbox.name)?.target).toBeUndefined()
    clock += HEARTBEAT_STATUS_MS
    expect(await recordHeartbeat(deps, f.mailbox.name, new Map())).toBe('written')
  })

  it('finds the status just refreshed by another process and only renews', async () => {
    const other: HeartbeatMemo = new Map()
    clock += HEARTBEAT_STATUS_MS
    // another process refreshed the status but its lease write has not landed yet
    expect(await recordHeartbeat(deps, f.mailbox.name, other)).toBe('written')
    const l = await lease()
    await f.deps.kv.put(leaseNamespace(f.inventory.id), uid, { ...l, statusAt: 1 })
    clock += 1_000
    const rv = (await syncTarget()).metadata.resourceVersion
    expect(await recordHeartbeat(deps, f.mailbox.name, new Map())).toBe('renewed')
    expect((await syncTarget()).metadata.resourceVersion).toBe(rv)
    expect(await lease()).toEqual({ renewedAt: clock, statusAt: clock - 1_000 })
  })

  it('reads a lease it cannot understand as never renewed', async () => {
    await f.deps.kv.put(leaseNamespace(f.inventory.id), uid, 'not a lease')
    expect(await lease()).toEqual({ renewedAt: 0, statusAt: 0 })
    clock += 60_000
    expect(await recordHeartbeat(deps, f.mailbox.name, new Map())).toBe('written')
  })

  it('does nothing for a mailbox whose SyncTarget is gone or unknown', async () => {
    const memo: HeartbeatMemo = new Map()
    const gone = '00000000-0000-4000-8000-000000000000'
    const other = f.mailbox.name.replace(/-mb-.*$/, `-mb-${gone}`)
    expect(await recordHeartbeat(deps, other, memo)).toBe('unknown')
    expect(await readLease(f.deps.kv, f.inventory.id, gone)).toBeUndefined()
    expect(await recordHeartbeat(deps, 'not-a-mailbox', memo)).toBe('unknown')
  })
})
