/**
 * A watch's poll rate while changes flow (functions/api/watch.ts): at most one poll per base
 * interval, counted from each poll's start, and none back to back while entries it already sent
 * sit in its re-read window. Every write of a burst still reaches the watch once, in order. Each
 * case runs on a store that hands entries out at once and on one that settles them (as in
 * production, shorter).
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { ADMIN_TOKEN, BASE, createTestHub, type TestHub } from '../../helpers/hub.ts'
import { type NdjsonReader, ndjsonReader } from '../../helpers/ndjson-reader.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const CONFIGMAPS = '/clusters/root/api/v1/namespaces/rate/configmaps'
// The watch's default base interval (functions/api/watch.ts).
const BASE_MS = 200

let hub: TestHub | undefined
afterEach(() => hub?.close())

async function setUp(settleMs: number) {
  const counter = createRequestCounter()
  hub = await createTestHub({ counter, settleMs })
  await hub.call('POST', '/clusters/root/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'rate' },
  })
  const list = await hub.call('GET', CONFIGMAPS)
  const rv = list.body.metadata.resourceVersion as string
  const res = await hub.app.request(`${BASE}${CONFIGMAPS}?watch=true&resourceVersion=${rv}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  })
  expect(res.status).toBe(200)
  return { counter, hub, watch: ndjsonReader(res.body as ReadableStream<Uint8Array>) }
}

const create = (h: TestHub, name: string) =>
  h.call('POST', CONFIGMAPS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } })

async function names(watch: NdjsonReader, n: number): Promise<string[]> {
  const out: string[] = []
  while (out.length < n) {
    const ev = await watch.next()
    if (ev.type === 'ADDED') out.push(ev.object.metadata.name)
  }
  return out
}

describe.each([0, 300])('a watch on a store settling %i ms', (settleMs) => {
  it('polls a few times after one write, not back to back through its re-read window', async () => {
    const { counter, hub: h, watch } = await setUp(settleMs)
    await sleep(3_000)
    counter.reset()
    expect((await create(h, 'one')).status).toBe(201)
    expect(await names(watch, 1)).toEqual(['one'])
    const windowMs = 3_000
    await sleep(windowMs)
    // Polling back to back through the 2 s re-read window took hundreds of Queries here.
    expect(counter.snapshot().Query ?? 0).toBeLessThanOrEqual(windowMs / BASE_MS)
    await watch.close()
  })

  it('polls at most once per base interval during a burst, and every write arrives', async () => {
    const { counter, hub: h, watch } = await setUp(settleMs)
    await sleep(3_000)
    counter.reset()
    const began = Date.now()
    const written: string[] = []
    for (let i = 0; i < 15; i++) {
      const name = `burst-${i}`
      expect((await create(h, name)).status).toBe(201)
      written.push(name)
      await sleep(50)
    }
    expect(await names(watch, written.length)).toEqual(written)
    const elapsed = Date.now() - began
    // Polls while events flow, plus the few that settle the last write.
    expect(counter.snapshot().Query ?? 0).toBeLessThanOrEqual(Math.ceil(elapsed / BASE_MS) + 4)
    await watch.close()
  })
})
