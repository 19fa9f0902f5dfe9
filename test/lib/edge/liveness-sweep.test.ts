/**
 * The liveness sweep and the heartbeat together keep a SyncTarget's Ready condition and version
 * (their one writer, sync-target-liveness.ts): a SyncTarget no agent heard from gets
 * Unknown/NeverSeen; a heartbeat makes it True/Heartbeating with the agent's version; silence for
 * the threshold makes the sweep write Unknown/Stale — with no event, and without touching the
 * heartbeat time — which `kubectl get synctargets` prints; the next heartbeat makes it True again
 * at once. An unchanged world costs the sweep no write; a write that lost a race (its read is
 * out of date) is healed by the next sweep; a sweep out of room stops before writing; a
 * configured threshold is followed by the sweep and the heartbeat alike; and the mailbox step's
 * Inventory condition, applied beside Ready, leaves Ready alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SYNC_TARGETS } from '../../../lib/apis/gvr.ts'
import { recordHeartbeat } from '../../../lib/edge/heartbeat.ts'
import { type Leases, sweepLivenessPage } from '../../../lib/edge/liveness-sweep.ts'
import { writeLiveness } from '../../../lib/edge/sync-target-liveness.ts'
import { createHubClient } from '../../../lib/hub/client.ts'
import type { HubDeps } from '../../../lib/hub/deps.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { livenessRule, STALE_AFTER_MS } from '../../../lib/summarize/liveness.ts'
import { BASE } from '../../helpers/hub.ts'
import { createEdgeFixture, type EdgeFixture } from './edge-fixture.ts'

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io'
const AGENT = { version: '0.4.0', pollIntervalSeconds: 2 }

let f: EdgeFixture
let clock = Date.parse('2031-05-06T07:00:00Z')
let deps: HubDeps
beforeAll(async () => {
  f = await createEdgeFixture()
  deps = { ...f.deps, now: () => new Date(clock) }
})
afterAll(() => f.close())

const syncTarget = async (): Promise<KubeObject> => (await f.call('GET', f.syncTargetPath)).body
const ready = async () =>
  ((await syncTarget()).status as any)?.conditions?.find((c: any) => c.type === 'Ready')
const listed = async () =>
  (await deps.objects.list({ cluster: '*', ...SYNC_TARGETS })).items as KubeObject[]
/** One sweep over every SyncTarget, as one cron tick would, with `room` for its writes. */
const sweep = async (d: HubDeps = deps, room = () => true) =>
  sweepLivenessPage(d, await listed(), { leases: new Map() as Leases, room })
const beat = (d: HubDeps = deps) => recordHeartbeat(d, f.mailbox.name, new Map(), AGENT)

/** The READY, REASON and VERSION cells `kubectl get synctargets` prints for edge1. */
async function printed() {
  const res = await f.app.request(`${BASE}${f.syncTargetPath}`, {
    headers: { authorization: 'Bearer test-admin-token', accept: TABLE },
  })
  const t = (await res.json()) as any
  const names = t.columnDefinitions.map((c: any) => c.name)
  const cells = t.rows[0].cells
  return ['Ready', 'Reason', 'Version'].map((n) => cells[names.indexOf(n)])
}

describe('a SyncTarget’s Ready condition', () => {
  it('is Unknown (NeverSeen) once swept before any heartbeat, then costs the sweep nothing', async () => {
    expect(await ready()).toBeUndefined()
    expect(await sweep()).toMatchObject({ checked: 1, written: 1, raced: 0, stopped: false })
    expect(await ready()).toMatchObject({ status: 'Unknown', reason: 'NeverSeen' })
    expect(await printed()).toEqual(['Unknown', 'NeverSeen', null])
    f.counter.reset()
    expect(await sweep()).toMatchObject({ checked: 1, written: 0 })
    expect(f.writes()).toBe(0)
  })

  it('turns True with the agent’s version at its first heartbeat', async () => {
    expect(await beat()).toBe('written')
    expect(await ready()).toMatchObject({ status: 'True', reason: 'Heartbeating' })
    expect(await printed()).toEqual(['True', 'Heartbeating', '0.4.0'])
    expect((await sweep()).written).toBe(0)
  })

  it('turns Unknown (Stale) by the sweep once silent for the threshold, the heartbeat time kept', async () => {
    const before = (await syncTarget()).status as any
    clock += STALE_AFTER_MS - 1000
    expect((await sweep()).written).toBe(0)
    clock += 1000
    expect((await sweep()).written).toBe(1)
    const after = (await syncTarget()).status as any
    expect(after.lastSyncerHeartbeatTime).toBe(before.lastSyncerHeartbeatTime)
    expect(await ready()).toMatchObject({
      status: 'Unknown',
      reason: 'Stale',
      message: expect.stringContaining('sent no heartbeat for 3m or more'),
    })
    expect(await printed()).toEqual(['Unknown', 'Stale', '0.4.0'])
  })

  it('turns True again at the next heartbeat, its transition time moving', async () => {
    const stale = await ready()
    clock += 10_000
    expect(await beat()).toBe('written')
    const now = await ready()
    expect(now).toMatchObject({ status: 'True', reason: 'Heartbeating' })
    expect(Date.parse(now.lastTransitionTime)).toBeGreaterThan(Date.parse(stale.lastTransitionTime))
  })

  it('heals by the next sweep a write that lost a race', async () => {
    const read = await syncTarget()
    clock += STALE_AFTER_MS
    // another writer moved the SyncTarget after this read
    const moved = { ...read, metadata: { ...read.metadata, labels: { moved: 'yes' } } }
    expect((await f.call('PUT', f.syncTargetPath, moved)).status).toBe(200)
    const heard = { lastHeard: clock - STALE_AFTER_MS, agentVersion: '0.4.0' }
    const inventory = f.inventory.id
    expect(await writeLiveness(deps, { inventory, st: read, heard })).toBe('raced')
    expect((await ready()).status).toBe('True')
    expect((await sweep()).written).toBe(1)
    expect((await ready()).reason).toBe('Stale')
  })

  it('writes nothing when out of room', async () => {
    clock += 10_000
    await beat()
    clock += STALE_AFTER_MS
    f.counter.reset()
    expect(await sweep(deps, () => false)).toMatchObject({ written: 0, stopped: true })
    expect(f.writes()).toBe(0)
    expect((await ready()).status).toBe('True')
    expect((await sweep()).written).toBe(1)
  })

  it('follows a configured threshold, in the sweep and in the heartbeat', async () => {
    const short: HubDeps = { ...deps, liveness: livenessRule(30) }
    clock += 1000
    expect(await beat(short)).toBe('written') // back after more than 30 s
    expect((await ready()).reason).toBe('Heartbeating')
    clock += 29_000
    expect((await sweep(short)).written).toBe(0)
    clock += 1000
    expect((await sweep(short)).written).toBe(1)
    expect(await ready()).toMatchObject({
      status: 'Unknown',
      reason: 'Stale',
      message: expect.stringContaining('for 30s or more'),
    })
    clock += 1000
    // 31 s of silence is a return by this rule (none by the default one): written at once
    expect(await beat(short)).toBe('written')
    expect((await ready()).status).toBe('True')
  })

  it('is left alone by the mailbox step’s Inventory condition beside it', async () => {
    const mailbox = createHubClient(deps, { fieldManager: 'edgeplane-mailbox', baseUrl: BASE })
    const st = await syncTarget()
    const inventory = {
      type: 'Inventory',
      status: 'False',
      reason: 'NotInventorySpace',
      message: 'not an inventory space',
    }
    const apply = (status: Record<string, unknown>) =>
      mailbox.applyStatus(
        f.inventory.id,
        SYNC_TARGETS,
        {
          apiVersion: st.apiVersion,
          kind: st.kind,
          metadata: { name: 'edge1', uid: st.metadata.uid ?? '' },
          status,
        } as KubeObject,
        { fieldManager: 'edgeplane-mailbox' }
      )
    await apply({ conditions: [inventory] })
    const types = async () =>
      (((await syncTarget()).status as any).conditions as any[]).map((c) => c.type).sort()
    expect(await types()).toEqual(['Inventory', 'Ready'])
    await apply({})
    expect(await types()).toEqual(['Ready'])
    expect((await ready()).status).toBe('True')
  })
})
