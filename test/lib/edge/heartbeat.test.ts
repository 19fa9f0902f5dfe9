/**
 * Coarse liveness: heartbeats set the SyncTarget's status.lastSyncerHeartbeatTime at most once a
 * minute; a warm process skips even the read, another process reads once and writes only when due.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { applyReport, parseReport } from '../../../lib/edge/apply-report.ts'
import { recordHeartbeat } from '../../../lib/edge/heartbeat.ts'
import type { HubDeps } from '../../../lib/hub/deps.ts'
import type { HeartbeatMemo } from '../../../lib/hub/hub-caches.ts'
import { createEdgeFixture, type EdgeFixture } from './edge-fixture.ts'

let f: EdgeFixture
let clock = Date.parse('2031-05-06T07:08:09Z')
let deps: HubDeps
beforeAll(async () => {
  f = await createEdgeFixture()
  deps = { ...f.deps, now: () => new Date(clock) }
})
afterAll(() => f.close())

const syncTarget = async () => (await f.call('GET', f.syncTargetPath)).body

describe('heartbeat', () => {
  it('records the time once a minute however often reports come', async () => {
    const memo: HeartbeatMemo = new Map()
    const env = { ...f.env, deps, heartbeats: memo }
    const beat = () => applyReport(env, f.mailbox, parseReport({ kind: 'Report', heartbeat: true }))
    expect(await beat()).toEqual({ kind: 'ReportResult', accepted: 0, rejected: [] })
    const first = await syncTarget()
    expect(first.status.lastSyncerHeartbeatTime).toBe('2031-05-06T07:08:09Z')
    const fields = first.metadata.managedFields.map((m: any) => [m.manager, m.subresource])
    expect(fields).toContainEqual(['edge-heartbeat', 'status'])
    clock += 20_000
    f.counter.reset()
    await beat()
    expect(f.counter.total()).toBe(0) // remembered: not even a read
    clock += 20_000
    await beat()
    expect(f.counter.total()).toBe(0) // the time it wrote is 40 s old: not due yet
    expect((await syncTarget()).metadata.resourceVersion).toBe(first.metadata.resourceVersion)
    clock += 25_000
    await beat()
    const second = await syncTarget()
    expect(second.status.lastSyncerHeartbeatTime).toBe('2031-05-06T07:09:14Z')
    expect(second.metadata.resourceVersion).not.toBe(first.metadata.resourceVersion)
  })

  it('lets another process find a recent heartbeat with one read, after learning the name', async () => {
    const memo: HeartbeatMemo = new Map()
    clock += 10_000
    expect(await recordHeartbeat(deps, f.mailbox.name, memo)).toBe('fresh')
    expect(memo.get(f.mailbox.name)?.target).toBe('edge1')
    memo.set(f.mailbox.name, { checkedAt: 0, beatAt: 0, target: 'edge1' })
    f.counter.reset()
    expect(await recordHeartbeat(deps, f.mailbox.name, memo)).toBe('fresh')
    expect(f.counter.snapshot()).toEqual({ GetItem: 1 })
    clock += 60_000
    expect(await recordHeartbeat(deps, f.mailbox.name, memo)).toBe('written')
  })

  it('does nothing for a mailbox whose SyncTarget is gone or unknown', async () => {
    const memo: HeartbeatMemo = new Map()
    const other = f.mailbox.name.replace(/-mb-.*$/, '-mb-00000000-0000-4000-8000-000000000000')
    expect(await recordHeartbeat(deps, other, memo)).toBe('unknown')
    expect(await recordHeartbeat(deps, 'not-a-mailbox', memo)).toBe('unknown')
  })
})
