/**
 * Liveness in two records: each heartbeat renews the edge's lease (one swap in the key-value
 * store, no object write), and the SyncTarget's status.lastSyncerHeartbeatTime is written when the
 * edge comes back and on its first heartbeat in each five-minute status window, once whoever
 * writes it (a lost lease beside a live status is no return); a warm process skips duplicate
 * reports without a request; a SyncTarget that is gone keeps no lease.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { applyReport, parseReport } from '../../../lib/edge/apply-report.ts'
import { recordHeartbeat } from '../../../lib/edge/heartbeat.ts'
import {
  HEARTBEAT_STATUS_MS,
  leaseNamespace,
  readLease,
  statusWindow,
} from '../../../lib/edge/lease.ts'
import type { HubDeps } from '../../../lib/hub/deps.ts'
import type { HeartbeatMemo } from '../../../lib/hub/hub-caches.ts'
import { resolveSpaceCached } from '../../../lib/hub/space-cache.ts'
import { parseMailboxName } from '../../../lib/reconcile/keys.ts'
import { livenessRule, STALE_AFTER_MS } from '../../../lib/summarize/liveness.ts'
import { createEdgeFixture, type EdgeFixture } from './edge-fixture.ts'

let f: EdgeFixture
let clock = 0
let deps: HubDeps
let uid: string
beforeAll(async () => {
  f = await createEdgeFixture()
  deps = { ...f.deps, now: () => new Date(clock) }
  uid = parseMailboxName(f.mailbox.name)?.syncTargetUid ?? ''
  // a second into one of this edge's status windows
  clock = Date.parse('2031-05-06T07:00:00Z')
  while (statusWindow(uid, clock) === statusWindow(uid, clock - 1000)) clock += 1000
  clock += 1000
})
afterAll(() => f.close())

const syncTarget = async () => (await f.call('GET', f.syncTargetPath)).body
const lease = () => readLease(f.deps.kv, f.inventory.id, uid)
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z')
const beat = (memo: HeartbeatMemo = new Map()) => recordHeartbeat(deps, f.mailbox.name, memo)

describe('heartbeat', () => {
  it('writes the status once, then only renews the lease until the next status window', async () => {
    const memo: HeartbeatMemo = new Map()
    const env = { ...f.env, deps, heartbeats: memo }
    const report = () =>
      applyReport(env, f.mailbox, parseReport({ kind: 'Report', heartbeat: true }))
    const t0 = clock
    expect(await report()).toEqual({ kind: 'ReportResult', accepted: 0, rejected: [] })
    const first = await syncTarget()
    expect(first.status.lastSyncerHeartbeatTime).toBe(iso(t0))
    const fields = first.metadata.managedFields.map((m: any) => [m.manager, m.subresource])
    expect(fields).toContainEqual(['edge-heartbeat', 'status'])
    expect(await lease()).toEqual({ renewedAt: t0 })

    clock += 20_000
    f.counter.reset()
    await report()
    expect(f.counter.total()).toBe(0) // a duplicate report: not even a read
    // a beat a minute for the rest of the window: one request each, the SyncTarget untouched
    const beatsInWindow = HEARTBEAT_STATUS_MS / 60_000
    for (let k = 1; k < beatsInWindow; k++) {
      clock = t0 + k * 60_000
      f.counter.reset()
      expect(await beat(memo)).toBe('renewed')
      expect(f.counter.snapshot()).toEqual({ UpdateItem: 1 })
      expect(await lease()).toEqual({ renewedAt: clock })
    }
    expect((await syncTarget()).metadata.resourceVersion).toBe(first.metadata.resourceVersion)
    clock = t0 + HEARTBEAT_STATUS_MS // the next window
    expect(await beat(memo)).toBe('written')
    const second = await syncTarget()
    expect(second.status.lastSyncerHeartbeatTime).toBe(iso(clock))
    expect(second.metadata.resourceVersion).not.toBe(first.metadata.resourceVersion)
  })

  it('writes a status with no read of its space while the API remembers it', async () => {
    const memo: HeartbeatMemo = new Map()
    clock += HEARTBEAT_STATUS_MS
    expect(await beat(memo)).toBe('written')
    clock += HEARTBEAT_STATUS_MS // the next window
    // The API resolved the inventory space a moment ago (any request naming it does).
    expect(await resolveSpaceCached(f.deps.kv, f.inventory.id, clock)).toMatchObject({
      id: f.inventory.id,
    })
    f.counter.reset()
    expect(await beat(memo)).toBe('written')
    // The lease, the SyncTarget, and its write (resourceVersion, object, change log).
    expect(f.counter.snapshot()).toEqual({ UpdateItem: 2, GetItem: 1, PutItem: 2 })
    expect((await syncTarget()).status.lastSyncerHeartbeatTime).toBe(iso(clock))
  })

  it('lets another process renew with that one request, learning nothing else', async () => {
    const memo: HeartbeatMemo = new Map()
    clock += 60_000
    f.counter.reset()
    expect(await beat(memo)).toBe('renewed')
    expect(f.counter.snapshot()).toEqual({ UpdateItem: 1 })
    expect(memo.get(f.mailbox.name)?.target).toBeUndefined()
  })

  it('writes the status at once when the edge comes back after STALE_AFTER_MS of silence', async () => {
    const rv = (await syncTarget()).metadata.resourceVersion
    clock += STALE_AFTER_MS // silent, within the same status window
    expect(await beat()).toBe('written')
    const st = await syncTarget()
    expect(st.status.lastSyncerHeartbeatTime).toBe(iso(clock))
    expect(st.metadata.resourceVersion).not.toBe(rv)
  })

  it('writes the status once per window when another process already did', async () => {
    const before = statusWindow(uid, clock)
    while (statusWindow(uid, clock) === before) clock += 60_000
    expect(await beat()).toBe('written') // the first beat of a new window
    const rv = (await syncTarget()).metadata.resourceVersion
    // another process's beat, a second later, whose swap answers a renewal from the window before
    let start = clock
    while (statusWindow(uid, start - 1000) === statusWindow(uid, clock)) start -= 1000
    await f.deps.kv.put(leaseNamespace(f.inventory.id), uid, { renewedAt: start - 1000 })
    clock += 1000
    expect(await beat()).toBe('raced')
    expect((await syncTarget()).metadata.resourceVersion).toBe(rv)
  })

  it("writes no status for a lost lease beside a live status (a new release's first beat)", async () => {
    const rv = (await syncTarget()).metadata.resourceVersion
    await f.deps.kv.put(leaseNamespace(f.inventory.id), uid, 'not a lease') // or none at all
    clock += 1000
    expect(await beat()).toBe('raced')
    expect((await syncTarget()).metadata.resourceVersion).toBe(rv)
    expect(await lease()).toEqual({ renewedAt: clock })
    // the same, once the status is stale too: a return
    await f.deps.kv.delete(leaseNamespace(f.inventory.id), uid)
    clock += STALE_AFTER_MS
    expect(await beat()).toBe('written')
    expect((await syncTarget()).status.lastSyncerHeartbeatTime).toBe(iso(clock))
  })

  it('remembers a renewal for half the heartbeat period of a configured threshold', async () => {
    const short = { ...deps, liveness: livenessRule(30) } // agents beat every 10 s
    const memo: HeartbeatMemo = new Map()
    clock += 60_000
    await recordHeartbeat(short, f.mailbox.name, memo)
    clock += 4_999
    expect(await recordHeartbeat(short, f.mailbox.name, memo)).toBe('remembered')
    clock += 1
    expect(await recordHeartbeat(short, f.mailbox.name, memo)).toBe('renewed')
    expect(await lease()).toEqual({ renewedAt: clock })
  })

  it('keeps no lease for a mailbox whose SyncTarget is gone or unknown', async () => {
    const gone = '00000000-0000-4000-8000-000000000000'
    const other = f.mailbox.name.replace(/-mb-.*$/, `-mb-${gone}`)
    expect(await recordHeartbeat(deps, other, new Map())).toBe('unknown')
    expect(await readLease(f.deps.kv, f.inventory.id, gone)).toBeUndefined()
    expect(await recordHeartbeat(deps, 'not-a-mailbox', new Map())).toBe('unknown')
  })
})
