/**
 * The edge API's storm control (functions/edge-api/admission.ts) through `app.request()`: requests
 * are kept in work by a gate inside the injected manifest read (no sleeps, no clock), the limit,
 * randomness and clock are injected through the hub's deps.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createNodeApp } from '../../../functions/node-server.ts'
import {
  createEdgeAdmission,
  type EdgeAdmission,
  SHED_BASE_SECONDS,
  SHED_MAX_SECONDS,
} from '../../../lib/edge/admission.ts'
import type { Bell, BellOutcome } from '../../../lib/edge/bell.ts'
import { createWakeGate } from '../../../lib/edge/wake-gate.ts'
import { bootstrapHub } from '../../../lib/hub/bootstrap.ts'
import { createLogger } from '../../../lib/log.ts'
import { storeHubOps } from '../../../lib/metrics/hub-ops.ts'
import { bumpEpoch } from '../../../lib/store/epochs.ts'
import { contentVersion, type ProjectionStore } from '../../../lib/store/projection-types.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { parseExposition } from '../../helpers/exposition.ts'
import { ADMIN_TOKEN, BASE } from '../../helpers/hub.ts'
import { createInventory, createSyncTarget, edgeToken } from './edge-setup.ts'

let store: TestStore
let hub: ReturnType<typeof createNodeApp>
let mailbox: string
let spaceId: string
let token: string
let version = 0
const logged: Record<string, unknown>[] = []

async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {}
) {
  const all: Record<string, string> = { authorization: `Bearer ${ADMIN_TOKEN}`, ...headers }
  if (body !== undefined) all['content-type'] = 'application/json'
  const res = await hub.app.request(`${BASE}${path}`, {
    method,
    headers: all,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  })
  const text = await res.text()
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined }
}

const asEdge = (extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${token}`,
  ...extra,
})
const poll = (extra: Record<string, string> = {}) =>
  call('GET', `/edge/v1/mailboxes/${mailbox}/desired`, undefined, asEdge(extra))
const heartbeat = () =>
  call(
    'POST',
    `/edge/v1/mailboxes/${mailbox}/reports`,
    { kind: 'Report', heartbeat: true },
    asEdge()
  )

/** A deferred: a promise and what settles it. */
function deferred<T = void>() {
  let resolve!: (v: T) => void
  const promise = new Promise<T>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

/** Manifest reads wait at the gate while it is armed: they are in work meanwhile. */
let armed: { need: number; count: number; reached: () => void; opened: Promise<void> } | undefined

function arm(need: number) {
  const reached = deferred()
  const opened = deferred()
  armed = { need, count: 0, reached: reached.resolve, opened: opened.promise }
  return {
    reached: reached.promise,
    open: () => {
      armed = undefined
      opened.resolve()
    },
  }
}

function gated(real: ProjectionStore): ProjectionStore {
  const getManifest = async (id: string) => {
    const g = armed
    if (g) {
      g.count++
      if (g.count >= g.need) g.reached()
      await g.opened
    }
    return real.getManifest(id)
  }
  return new Proxy(real, {
    get(target, key) {
      if (key === 'getManifest') return getManifest
      const v = Reflect.get(target, key, target)
      return typeof v === 'function' ? v.bind(target) : v
    },
  })
}

function limitTo(limit: number): EdgeAdmission {
  const admission = createEdgeAdmission({ limit, random: () => 0.999_999, now: () => 0 })
  hub.deps.edgeAdmission = admission
  return admission
}

function expectShed(res: Awaited<ReturnType<typeof call>>): number {
  expect(res.status).toBe(429)
  expect(res.body).toMatchObject({
    kind: 'Status',
    apiVersion: 'v1',
    status: 'Failure',
    reason: 'TooManyRequests',
    code: 429,
  })
  const wait = Number(res.headers.get('retry-after'))
  expect(Number.isInteger(wait)).toBe(true)
  expect(wait).toBeGreaterThanOrEqual(SHED_BASE_SECONDS)
  expect(wait).toBeLessThanOrEqual(SHED_MAX_SECONDS)
  return wait
}

beforeAll(async () => {
  store = await createTestStore()
  hub = createNodeApp({ objects: store.objects, kv: store.kv, projections: store.projections })
  await bootstrapHub(hub.deps, { adminToken: ADMIN_TOKEN, baseUrl: BASE })
  await createInventory(call, 'imw-adm')
  ;({ mailbox, spaceId } = await createSyncTarget(call, 'imw-adm', 'storm'))
  token = await edgeToken({ store }, mailbox)
  const w = await hub.deps.projections.writeManifest(spaceId, {
    desired: [],
    expectedVersion: null,
    now: new Date(),
  })
  version = contentVersion(w.manifest)
  await bumpEpoch(hub.deps.kv, 'manifests')
  hub.deps.projections = gated(hub.deps.projections)
  hub.deps.log = createLogger({
    level: 'warn',
    sink: (line) => logged.push(JSON.parse(line)),
  })
})
beforeEach(() => {
  logged.length = 0
})
afterAll(async () => {
  hub.bell.close()
  await hub.settle()
  await store.close()
})

describe('edge API storm control', () => {
  it('sheds polls and heartbeats past the limit in work with 429, a jittered Retry-After and a Status', async () => {
    const admission = limitTo(2)
    const gate = arm(2)
    const working = [poll(), poll()]
    await gate.reached
    expect(admission.inFlight()).toBe(2)
    // Pressure grows with each shed of the second (random injected at its top): 1 + 6, 8, 10.
    const waits = [expectShed(await poll()), expectShed(await heartbeat())]
    // Shed before the token is checked: a token the store does not know is not looked up.
    const unknown = await call('GET', `/edge/v1/mailboxes/${mailbox}/desired`, undefined, {
      authorization: 'Bearer not-a-token',
    })
    waits.push(expectShed(unknown))
    expect(waits).toEqual([7, 9, 11])
    // One log line for the three sheds of the same second.
    const lines = logged.filter((l) => String(l.msg).startsWith('shedding edge requests'))
    expect(lines).toEqual([
      expect.objectContaining({ level: 'warn', shed: 1, inFlight: 2, limit: 2 }),
    ])
    gate.open()
    for (const res of await Promise.all(working)) expect(res.status).toBe(200)
    expect(admission.inFlight()).toBe(0)
    expect((await heartbeat()).status).toBe(200)
  })

  it('sheds nothing with the guard off', async () => {
    delete hub.deps.edgeAdmission
    const gate = arm(3)
    const working = [poll(), poll(), poll()]
    await gate.reached
    gate.open()
    for (const res of await Promise.all(working)) expect(res.status).toBe(200)
  })

  it('does not count a held poll parked on its bell, and counts it again while it answers', async () => {
    const admission = limitTo(1)
    const parked = deferred()
    const outcome = deferred<BellOutcome>()
    const bell: Bell = {
      ring: async () => {},
      wait: async () => {
        parked.resolve()
        return outcome.promise
      },
    }
    const saved = hub.deps.edgeHold
    hub.deps.edgeHold = { bell, maxSeconds: 30 }
    try {
      const held = poll({ 'if-none-match': `"${version}"`, prefer: 'wait=30' })
      await parked.promise
      expect(admission.inFlight()).toBe(0)
      // The limit is 1 and a poll is held: others are still served.
      expect((await poll({ 'if-none-match': `"${version}"` })).status).toBe(304)
      expect((await heartbeat()).status).toBe(200)
      // Rung: it reads again, and counts while it does.
      const gate = arm(1)
      outcome.resolve('rung')
      await gate.reached
      expect(admission.inFlight()).toBe(1)
      expectShed(await poll())
      gate.open()
      const res = await held
      expect(res.status).toBe(304)
      expect(res.headers.get('preference-applied')).toBe('wait=30')
      expect(admission.inFlight()).toBe(0)
    } finally {
      if (saved) hub.deps.edgeHold = saved
      else delete hub.deps.edgeHold
    }
  })

  it('does not count a woken held poll while it waits its turn at the wake gate', async () => {
    const admission = limitTo(2)
    const outcome = deferred<BellOutcome>()
    let waiting = 0
    const bothParked = deferred()
    const bell: Bell = {
      ring: async () => {},
      wait: async () => {
        if (++waiting === 2) bothParked.resolve()
        return outcome.promise
      },
    }
    const saved = hub.deps.edgeHold
    hub.deps.edgeHold = { bell, maxSeconds: 30, wakes: createWakeGate({ limit: 1 }) }
    try {
      const asked = { 'if-none-match': `"${version}"`, prefer: 'wait=30' }
      const held = [poll(asked), poll(asked)]
      await bothParked.promise
      expect(admission.inFlight()).toBe(0)
      // Both rung: one builds its answer (held in the manifest read), the other waits at the gate.
      const gate = arm(1)
      outcome.resolve('rung')
      await gate.reached
      expect(hub.deps.edgeHold.wakes?.waiting()).toBe(1)
      expect(admission.inFlight()).toBe(1)
      // The limit is 2: a heartbeat is still admitted beside the one answering.
      expect((await heartbeat()).status).toBe(200)
      gate.open()
      for (const res of await Promise.all(held)) {
        expect(res.status).toBe(304)
        expect(res.headers.get('preference-applied')).toBe('wait=30')
      }
      expect(admission.inFlight()).toBe(0)
    } finally {
      if (saved) hub.deps.edgeHold = saved
      else delete hub.deps.edgeHold
    }
  })

  it('counts the requests it sheds on /metrics, by route', async () => {
    const ops = storeHubOps(store, { shard: 5, flushEveryMs: 3_600_000 })
    const other = createNodeApp({
      objects: store.objects,
      kv: store.kv,
      projections: store.projections,
      ops,
      edgeMaxInFlight: 1,
    })
    const seat = other.deps.edgeAdmission?.admit()
    expect(seat?.ok).toBe(true)
    const shed = await other.app.request(`${BASE}/edge/v1/mailboxes/${mailbox}/desired`, {
      headers: asEdge(),
    })
    expect(shed.status).toBe(429)
    const res = await other.app.request(`${BASE}/metrics`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    })
    expect(res.status).toBe(200)
    const e = parseExposition(await res.text())
    expect(e.value('edgeplane_edge_shed_total', { route: 'edge-desired' })).toBe(1)
    expect(e.value('edgeplane_edge_polls_total', { code: '429' })).toBe(1)
    if (seat?.ok) seat.ticket.release()
    other.bell.close()
    await other.settle()
  })
})
