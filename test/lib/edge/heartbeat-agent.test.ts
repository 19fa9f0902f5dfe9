/**
 * What the agent says of itself in a heartbeat (its version and poll interval) lands in its lease
 * with the renewal, in that one request; the heartbeat memo still skips a duplicate beat that says
 * the same, but not one that says something else (an agent upgraded, or restarted with another
 * interval), which is recorded at once — and another version also in the SyncTarget's status
 * (`agentVersion`, the VERSION column, and the Ready message), at that beat; an agent that says
 * nothing leaves the lease and the status without; a report that is no heartbeat records nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { applyReport, parseReport } from '../../../lib/edge/apply-report.ts'
import { agentKey, recordHeartbeat } from '../../../lib/edge/heartbeat.ts'
import { readLease, statusWindow } from '../../../lib/edge/lease.ts'
import type { AgentInfo } from '../../../lib/edge/protocol.ts'
import type { HubDeps } from '../../../lib/hub/deps.ts'
import type { HeartbeatMemo } from '../../../lib/hub/hub-caches.ts'
import { parseMailboxName } from '../../../lib/reconcile/keys.ts'
import { createEdgeFixture, type EdgeFixture } from './edge-fixture.ts'

let f: EdgeFixture
let clock = 0
let deps: HubDeps
let uid: string
beforeAll(async () => {
  f = await createEdgeFixture()
  deps = { ...f.deps, now: () => new Date(clock) }
  uid = parseMailboxName(f.mailbox.name)?.syncTargetUid ?? ''
  // a second into one of this edge's status windows, so the beats below share it
  clock = Date.parse('2031-05-06T07:00:00Z')
  while (statusWindow(uid, clock) === statusWindow(uid, clock - 1000)) clock += 1000
  clock += 1000
})
afterAll(() => f.close())

const lease = () => readLease(f.deps.kv, f.inventory.id, uid)
const status = async () => (await f.call('GET', f.syncTargetPath)).body.status
const ready = async () =>
  ((await status()).conditions ?? []).find((c: { type: string }) => c.type === 'Ready')
const V1 = { version: '0.1.0', pollIntervalSeconds: 15 }
const V1_SLOW = { version: '0.1.0', pollIntervalSeconds: 30 }
const V2 = { version: '0.2.0', pollIntervalSeconds: 30 }

describe("a heartbeat records the agent's version and poll interval", () => {
  const memo: HeartbeatMemo = new Map()
  const beat = (agent?: AgentInfo) => recordHeartbeat(deps, f.mailbox.name, memo, agent)
  /** Beats `agent` `afterMs` later; what it did and the store requests it cost. */
  const beatAfter = async (afterMs: number, agent?: AgentInfo) => {
    clock += afterMs
    f.counter.reset()
    const outcome = await beat(agent)
    return { outcome, requests: f.counter.snapshot() }
  }

  it('in the lease, with the renewal', async () => {
    expect(await beat(V1)).toBe('written') // the edge's first beat: it comes back
    expect(await lease()).toEqual({
      renewedAt: clock,
      agentVersion: '0.1.0',
      pollIntervalSeconds: 15,
    })
    expect(memo.get(f.mailbox.name)?.agent).toBe(agentKey(V1))
    expect((await status()).agentVersion).toBe('0.1.0')
    expect(await ready()).toMatchObject({ status: 'True', reason: 'Heartbeating' })
  })

  it('skips a duplicate that says the same within the memo window', async () => {
    const renewedAt = clock
    expect(await beatAfter(5_000, V1)).toEqual({ outcome: 'remembered', requests: {} })
    expect((await lease())?.renewedAt).toBe(renewedAt)
  })

  it('records an agent restarted with another poll interval at its next beat', async () => {
    expect(await beatAfter(5_000, V1_SLOW)).toEqual({
      outcome: 'renewed',
      requests: { UpdateItem: 1 },
    })
    expect(await lease()).toEqual({
      renewedAt: clock,
      agentVersion: '0.1.0',
      pollIntervalSeconds: 30,
    })
    // and then remembers that, as before
    expect(await beatAfter(5_000, V1_SLOW)).toEqual({ outcome: 'remembered', requests: {} })
  })

  it('records an upgraded agent at its next beat, in the lease and the status', async () => {
    const before = await ready()
    expect((await beatAfter(5_000, V2)).outcome).toBe('written')
    expect(await lease()).toEqual({
      renewedAt: clock,
      agentVersion: '0.2.0',
      pollIntervalSeconds: 30,
    })
    expect((await status()).agentVersion).toBe('0.2.0')
    const now = await ready()
    expect(now).toMatchObject({ status: 'True', reason: 'Heartbeating' })
    expect(now.message).toContain('version 0.2.0')
    // Ready did not change its status: its transition time stays.
    expect(now.lastTransitionTime).toBe(before.lastTransitionTime)
  })

  it('leaves the lease without them once an agent says nothing (an older one)', async () => {
    expect((await beatAfter(5_000)).outcome).toBe('written')
    const now = await lease()
    expect(now).toEqual({ renewedAt: clock })
    expect(Object.keys(now ?? {})).toEqual(['renewedAt'])
    expect((await status()).agentVersion).toBeUndefined()
    expect(await beatAfter(5_000)).toEqual({ outcome: 'remembered', requests: {} })
  })

  it('costs an unchanged agent one request a beat, as without them', async () => {
    await beatAfter(30_000, V2)
    for (let k = 0; k < 3; k++) {
      expect(await beatAfter(60_000, V2)).toEqual({
        outcome: 'renewed',
        requests: { UpdateItem: 1 },
      })
    }
    expect(await lease()).toEqual({
      renewedAt: clock,
      agentVersion: '0.2.0',
      pollIntervalSeconds: 30,
    })
  })
})

describe('a report', () => {
  const report = (body: Record<string, unknown>) =>
    applyReport({ ...f.env, deps, heartbeats: new Map() }, f.mailbox, parseReport(body))

  it('records what its agent says with its heartbeat', async () => {
    clock += 60_000
    const agent = { version: '0.3.0', pollIntervalSeconds: 2 }
    expect(await report({ kind: 'Report', heartbeat: true, agent })).toEqual({
      kind: 'ReportResult',
      accepted: 0,
      rejected: [],
    })
    expect(await lease()).toEqual({
      renewedAt: clock,
      agentVersion: '0.3.0',
      pollIntervalSeconds: 2,
    })
  })

  it('without a heartbeat records nothing, whatever its agent says', async () => {
    const before = await lease()
    clock += 60_000
    f.counter.reset()
    await report({ kind: 'Report', agent: { version: '0.4.0', pollIntervalSeconds: 5 } })
    expect(f.writes()).toBe(0)
    expect(await lease()).toEqual(before)
  })
})
