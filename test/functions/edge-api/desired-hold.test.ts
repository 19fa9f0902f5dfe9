import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNodeApp } from '../../../functions/node-server.ts'
import type { Bell } from '../../../lib/edge/bell.ts'
import { createWakeGate } from '../../../lib/edge/wake-gate.ts'
import { bootstrapHub } from '../../../lib/hub/bootstrap.ts'
import { bumpEpoch } from '../../../lib/store/epochs.ts'
import { contentVersion, type DesiredEntry } from '../../../lib/store/projection-types.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { ADMIN_TOKEN, BASE } from '../../helpers/hub.ts'
import { createInventory, createSyncTarget, edgeToken } from './edge-setup.ts'

let store: TestStore
let hub: ReturnType<typeof createNodeApp>
let mailbox: string
let spaceId: string
let token: string

async function call(
  method: string,
  path: string,
  body?: unknown,
  opts: {
    headers?: Record<string, string>
    app?: ReturnType<typeof createNodeApp>['app']
    signal?: AbortSignal
  } = {}
) {
  const headers: Record<string, string> = {
    authorization: `Bearer ${opts.headers ? token : ADMIN_TOKEN}`,
    ...opts.headers,
  }
  if (body !== undefined) headers['content-type'] = 'application/json'
  const res = await (opts.app ?? hub.app).request(`${BASE}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  })
  const text = await res.text()
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined }
}

/** Another app over the same store, holding polls at most `seconds`. */
const holdingAtMost = (seconds: number) =>
  createNodeApp({
    objects: store.objects,
    kv: store.kv,
    projections: store.projections,
    holdMaxSeconds: seconds,
  })

const poll = (
  headers: Record<string, string>,
  app?: ReturnType<typeof createNodeApp>['app'],
  signal?: AbortSignal
) =>
  call('GET', `/edge/v1/mailboxes/${mailbox}/desired`, undefined, {
    headers,
    ...(app ? { app } : {}),
    ...(signal ? { signal } : {}),
  })

const cm = (data: Record<string, string>): DesiredEntry => ({
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespace: 'default',
  name: 'held',
  body: {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'held', namespace: 'default' },
    data,
  } as never,
})

let version = 0
/** A manifest write as the translate step makes it: ringing the bell, then moving the epoch. */
async function write(
  data: Record<string, string>,
  o: { bell?: Bell | undefined; epoch?: boolean } = { bell: hub.deps.edgeHold?.bell }
) {
  const w = await hub.deps.projections.writeManifest(spaceId, {
    desired: [cm(data)],
    expectedVersion: version === 0 ? null : version,
    now: new Date(),
  })
  version = contentVersion(w.manifest)
  await o.bell?.ring(new Map([[spaceId, version]]))
  if (o.epoch !== false) await bumpEpoch(hub.deps.kv, 'manifests')
}

beforeAll(async () => {
  store = await createTestStore()
  hub = createNodeApp({ objects: store.objects, kv: store.kv, projections: store.projections })
  await bootstrapHub(hub.deps, { adminToken: ADMIN_TOKEN, baseUrl: BASE })
  await createInventory(call, 'imw-h')
  ;({ mailbox, spaceId } = await createSyncTarget(call, 'imw-h', 'florin'))
  token = await edgeToken({ store }, mailbox)
  await write({ a: '1' })
})
afterAll(async () => {
  hub.bell.close()
  await hub.settle()
  await store.close()
})

const current = () => ({ 'if-none-match': `"${version}"` })

describe('held desired-state polls', () => {
  it('holds a poll naming the current version and answers 200 when the mailbox is rung', async () => {
    const held = poll({ ...current(), prefer: 'wait=30' })
    // held once the bell has a waiter (polled, not slept on: a busy machine takes its time)
    while (hub.bell.waiting() < 1) await new Promise((r) => setTimeout(r, 10))
    expect(hub.bell.waiting()).toBe(1)
    await write({ a: '2' })
    const res = await held
    expect(res.status).toBe(200)
    expect(res.headers.get('preference-applied')).toBe('wait=30')
    expect(res.body.version).toBe(version)
    expect(res.headers.get('etag')).toBe(`"${version}"`)
  })

  it('answers 304 naming the hold when nothing moves before its end', async () => {
    const started = Date.now()
    const res = await poll({ ...current(), prefer: 'wait=1' })
    expect(res.status).toBe(304)
    expect(res.headers.get('preference-applied')).toBe('wait=1')
    expect(Date.now() - started).toBeGreaterThanOrEqual(900)
    expect(hub.bell.waiting()).toBe(0)
  })

  it('grants at most the longest hold, and names it', async () => {
    const short = holdingAtMost(1)
    const res = await poll({ ...current(), prefer: 'wait=999' }, short.app)
    expect(res.status).toBe(304)
    expect(res.headers.get('preference-applied')).toBe('wait=1')
    short.bell.close()
  })

  it('answers a poll without Prefer, or with a malformed one, at once as before', async () => {
    const extras: Record<string, string>[] = [{}, { prefer: 'wait=-5' }, { prefer: 'wait=1.5' }]
    for (const extra of extras) {
      const res = await poll({ ...current(), ...extra })
      expect(res.status).toBe(304)
      expect(res.headers.get('preference-applied')).toBeNull()
    }
    expect(hub.bell.waiting()).toBe(0)
  })

  it('answers at once a poll naming an older version or none (an old-style poll), naming the hold', async () => {
    const older = await poll({ 'if-none-match': `"${version - 1}"`, prefer: 'wait=30' })
    expect(older.status).toBe(200)
    expect(older.headers.get('preference-applied')).toBe('wait=30')
    const plain = await poll({ 'if-none-match': `"${version - 1}"` })
    expect(plain.status).toBe(200)
    expect(plain.headers.get('preference-applied')).toBeNull()
    expect(plain.body).toEqual(older.body)
  })

  it('holds nothing in a process whose longest hold is 0', async () => {
    const off = holdingAtMost(0)
    expect(off.deps.edgeHold).toBeUndefined()
    const res = await poll({ ...current(), prefer: 'wait=30' }, off.app)
    expect(res.status).toBe(304)
    expect(res.headers.get('preference-applied')).toBeNull()
  })

  it("refuses at once, holding nothing, a held poll with another edge's token or none", async () => {
    const other = await createSyncTarget(call, 'imw-h', 'mallory')
    const stranger = await edgeToken({ store }, other.mailbox)
    const wait = { ...current(), prefer: 'wait=30' }
    const theirs = await poll({ ...wait, authorization: `Bearer ${stranger}` })
    expect(theirs.status).toBe(403)
    expect(theirs.body.kind).toBe('Status')
    expect(theirs.headers.get('preference-applied')).toBeNull()
    const none = await poll({ ...wait, authorization: 'Bearer not-a-token' })
    expect(none.status).toBe(401)
    expect(hub.bell.waiting()).toBe(0)
  })

  it('reads anew when rung before the epoch moved (the idle-poll memory would say 304)', async () => {
    await poll(current())
    const before = version
    await write({ a: '4' }, { bell: hub.deps.edgeHold?.bell, epoch: false })
    const plain = await poll({ 'if-none-match': `"${before}"` })
    expect(plain.status).toBe(304)
    const held = await poll({ 'if-none-match': `"${before}"`, prefer: 'wait=30' })
    expect(held.status).toBe(200)
    expect(held.body.version).toBe(version)
    await bumpEpoch(hub.deps.kv, 'manifests')
  })

  it('reads again when the bell cannot tell, and answers as a plain poll when it fails', async () => {
    const hold = hub.deps.edgeHold!
    const withBell = (outcome: 'unknown' | 'failed') => {
      hub.deps.edgeHold = {
        maxSeconds: 30,
        bell: { ring: async () => undefined, wait: async () => outcome },
      }
    }
    try {
      withBell('unknown')
      const unsure = await poll({ ...current(), prefer: 'wait=30' })
      expect(unsure.status).toBe(304)
      expect(unsure.headers.get('preference-applied')).toBe('wait=30')
      withBell('failed')
      const failed = await poll({ ...current(), prefer: 'wait=30' })
      expect(failed.status).toBe(304)
      expect(failed.headers.get('preference-applied')).toBeNull()
    } finally {
      hub.deps.edgeHold = hold
    }
  })

  it('answers woken polls through the process wake gate, a few at a time', async () => {
    const hold = hub.deps.edgeHold!
    expect(hold.wakes).toBeDefined()
    // a gate of one, held shut by a call that has not finished: rung polls wait their turn
    const gate = createWakeGate({ limit: 1 })
    let open = () => {}
    const shut = gate.run(() => new Promise<void>((r) => (open = r)))
    hub.deps.edgeHold = { ...hold, wakes: gate }
    try {
      const polls = [0, 1].map(() => poll({ ...current(), prefer: 'wait=30' }))
      while (hub.bell.waiting() < 2) await new Promise((r) => setTimeout(r, 10))
      await write({ a: '5' })
      while (gate.waiting() < 2) await new Promise((r) => setTimeout(r, 10))
      expect(gate.running()).toBe(1)
      open()
      await shut
      const answers = await Promise.all(polls)
      expect(answers.map((r) => r.status)).toEqual([200, 200])
      expect(answers.map((r) => r.body.version)).toEqual([version, version])
      expect(gate.running() + gate.waiting()).toBe(0)
    } finally {
      hub.deps.edgeHold = hold
    }
  })

  it('builds no answer for a woken poll whose client left while it waited at the gate', async () => {
    const hold = hub.deps.edgeHold!
    const gate = createWakeGate({ limit: 1 })
    let open = () => {}
    const shut = gate.run(() => new Promise<void>((r) => (open = r)))
    hub.deps.edgeHold = { ...hold, wakes: gate }
    try {
      const before = current()
      const left = new AbortController()
      const gone = poll({ ...before, prefer: 'wait=30' }, undefined, left.signal)
      const stays = poll({ ...before, prefer: 'wait=30' })
      while (hub.bell.waiting() < 2) await new Promise((r) => setTimeout(r, 10))
      await write({ a: '6' })
      while (gate.waiting() < 2) await new Promise((r) => setTimeout(r, 10))
      left.abort()
      open()
      await shut
      const [a, b] = await Promise.all([gone, stays])
      // the one that left gets what it had (nothing read for it); the other the new state
      expect(a.status).toBe(304)
      expect(a.headers.get('etag')).toBe(before['if-none-match'])
      expect(b.status).toBe(200)
      expect(b.body.version).toBe(version)
    } finally {
      hub.deps.edgeHold = hold
    }
  })
})
