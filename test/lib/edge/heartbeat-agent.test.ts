/**
 * What the agent says of itself in a heartbeat (its version and poll interval) lands in its lease
 * with the renewal, in that one request; the heartbeat memo still skips a duplicate beat that says
 * the same, but not one that says something else (an agent upgraded, or restarted with another
 * interval), which is recorded at once — and another version also in the SyncTarget's status
 * (`agentVersion`, the VERSION column, and the Ready message), at that beat; an agent that says
 * nothing leaves the lease and the status without; a report that is no heartbeat records nothing.
 * How its last poll went lands there too: a beat whose only news is the time of its last poll is
 * still skipped by the memo (that time moves at every poll) and recorded at the next renewal, one
 * whose poll mode changed is recorded at once; a report whose poll fields are out of bounds is
 * refused.
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

describe('how the agent polls', () => {
  const memo: HeartbeatMemo = new Map()
  const at = (ms: number) => new Date(ms).toISOString()
  const polled = (pollMode: 'held' | 'plain', lastMs: number): AgentInfo => ({
    ...V2,
    pollMode,
    holdSeconds: 300,
    lastPollAt: at(lastMs),
  })
  const beatAfter = async (afterMs: number, agent: AgentInfo) => {
    clock += afterMs
    f.counter.reset()
    const outcome = await recordHeartbeat(deps, f.mailbox.name, memo, agent)
    return { outcome, requests: f.counter.snapshot() }
  }

  it('is recorded with the renewal; the last poll alone does not renew at once', async () => {
    const first = clock + 60_000
    await beatAfter(60_000, polled('held', first - 2_000))
    expect(await lease()).toEqual({
      renewedAt: first,
      agentVersion: '0.2.0',
      pollIntervalSeconds: 30,
      pollMode: 'held',
      holdSeconds: 300,
      lastPollAt: at(first - 2_000),
    })
    expect(memo.get(f.mailbox.name)?.agent).toBe(agentKey(polled('held', 0)))
    // a later poll, same mode: inside the memo window nothing is written
    expect(await beatAfter(5_000, polled('held', clock + 4_000))).toEqual({
      outcome: 'remembered',
      requests: {},
    })
    expect((await lease())?.lastPollAt).toBe(at(first - 2_000))
    // past the window the renewal takes the newest
    const last = clock + 29_000
    expect(await beatAfter(30_000, polled('held', last))).toEqual({
      outcome: 'renewed',
      requests: { UpdateItem: 1 },
    })
    expect((await lease())?.lastPollAt).toBe(at(last))
  })

  it('renews at once when the poll mode changes (a held agent fell back)', async () => {
    const last = clock + 1_000
    expect(await beatAfter(5_000, polled('plain', last))).toEqual({
      outcome: 'renewed',
      requests: { UpdateItem: 1 },
    })
    expect(await lease()).toMatchObject({ pollMode: 'plain', lastPollAt: at(last) })
  })

  it('is refused out of bounds', () => {
    const agent = (extra: Record<string, unknown>) => ({
      kind: 'Report',
      agent: { ...V2, ...extra },
    })
    for (const bad of [
      { pollMode: 'fast' },
      { holdSeconds: 371 },
      { holdSeconds: 1.5 },
      { holdSeconds: -1 },
      { lastPollAt: 'yesterday' },
      { lastPollAt: '2031-05-06 07:00:00Z' },
      { lastPollAt: 1_700_000_000_000 },
    ])
      expect(() => parseReport(agent(bad)), JSON.stringify(bad)).toThrow(/invalid Report: agent/)
    expect(parseReport(agent({ lastPollAt: '2031-05-06T09:00:00+02:00' })).agent).toMatchObject({
      lastPollAt: '2031-05-06T09:00:00+02:00',
    })
  })
})
