/**
 * Idle watches cost one shared counter read, not a poll each (lib/store/change-signal.ts): eight
 * watches open on a quiet hub send no Query of their own once the re-read window has passed, and
 * the counter is read at most once per SIGNAL_MAX_AGE_MS for all of them; the next write still
 * reaches every watch of its collection, and only those.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SIGNAL_MAX_AGE_MS } from '../../../lib/store/change-signal.ts'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { ADMIN_TOKEN, BASE, createTestHub, type TestHub } from '../../helpers/hub.ts'
import { type NdjsonReader, ndjsonReader } from '../../helpers/ndjson-reader.ts'

let hub: TestHub
const counter = createRequestCounter()
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

beforeAll(async () => {
  hub = await createTestHub({ counter })
  await hub.call('POST', '/clusters/root/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'quiet' },
  })
})
afterAll(() => hub.close())

const COLLECTIONS = [
  '/clusters/root/api/v1/namespaces/quiet/configmaps',
  '/clusters/root/api/v1/configmaps',
  '/clusters/*/api/v1/configmaps',
  '/clusters/root/api/v1/namespaces/quiet/secrets',
  '/clusters/root/api/v1/services',
  '/clusters/*/apis/apps/v1/deployments',
  '/clusters/*/apis/edge.kcp.io/v1alpha1/edgeplacements',
  '/clusters/*/apis/edge.kcp.io/v1alpha1/synctargets',
]

async function openWatch(path: string, rv: string): Promise<NdjsonReader> {
  const res = await hub.app.request(`${BASE}${path}?watch=true&resourceVersion=${rv}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  })
  expect(res.status).toBe(200)
  return ndjsonReader(res.body!)
}

describe('idle watches', () => {
  it('send no poll of their own while nothing changes, and the next write reaches them', async () => {
    const list = await hub.call('GET', COLLECTIONS[0] as string)
    const rv = list.body.metadata.resourceVersion as string
    const watches = await Promise.all(COLLECTIONS.map((path) => openWatch(path, rv)))
    // A watch's last poll comes at most the re-read window (2 s), its idle interval (1 s) and the
    // signal's max age after the counter last moved; then every watch is quiet.
    await sleep(4_000)
    counter.reset()
    const quietMs = 2_000
    await sleep(quietMs)
    const idle = counter.snapshot()
    expect(idle.Query ?? 0).toBe(0)
    expect(idle.GetItem ?? 0).toBeGreaterThan(0)
    expect(idle.GetItem ?? 0).toBeLessThanOrEqual(Math.ceil(quietMs / SIGNAL_MAX_AGE_MS) + 1)

    const created = await hub.call('POST', COLLECTIONS[0] as string, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'wakes' },
    })
    expect(created.status).toBe(201)
    // The three ConfigMap watches get it (each after its next poll, within a couple of seconds).
    for (const w of watches.slice(0, 3)) {
      const ev = await w.next()
      expect([ev.type, ev.object.metadata.name]).toEqual(['ADDED', 'wakes'])
    }
    await Promise.all(watches.map((w) => w.close()))
  })
})
