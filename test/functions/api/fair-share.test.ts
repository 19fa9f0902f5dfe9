/**
 * The API's per-token fair share (functions/api/fair-share.ts, mounted by app.ts), driven with
 * `app.request()` over a test hub's dependencies and a limiter with small bounds and an injected
 * clock: a watch holds its seat while its stream is open and gives it back when the client goes;
 * past a bound the answer is kube's 429 TooManyRequests Status with Retry-After; another token and
 * admins are not held back; a request holds its seat while it runs; the events a user's watch is
 * handed are charged to its token (an admin's never).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../../functions/api/app.ts'
import { isWatchRequest } from '../../../functions/api/fair-share.ts'
import { createTokenLimiter } from '../../../lib/quota/token-limiter.ts'
import { ADMIN_TOKEN, BASE, createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
let now = 5_000_000
let app: ReturnType<typeof createApp>
const events = { eventsPerSecond: 1000, eventBurst: 2000 }
const limiter = createTokenLimiter(
  { requests: 2, watches: 2, ratePerSecond: 1, burst: 50, ...events },
  () => now
)

beforeAll(async () => {
  hub = await createTestHub()
  app = createApp(() => hub.deps, { limiter })
  await hub.mintToken('a', ['root'])
  await hub.mintToken('b', ['root'])
})
afterAll(() => hub.close())

const CMS = '/clusters/root/api/v1/namespaces/default/configmaps'
const get = (path: string, token: string) =>
  app.request(`${BASE}${path}`, { headers: { authorization: `Bearer ${token}` } })

describe('a watch', () => {
  it('is told from other requests as the dispatch serves them', () => {
    const u = (p: string) => new URL(`${BASE}${p}`)
    expect(isWatchRequest('GET', u(`${CMS}?watch=true`))).toBe(true)
    expect(isWatchRequest('GET', u('/api/v1/watch/namespaces/default/configmaps'))).toBe(true)
    expect(isWatchRequest('GET', u(`${CMS}/x?watch=true`))).toBe(false)
    expect(isWatchRequest('GET', u(CMS))).toBe(false)
    expect(isWatchRequest('POST', u(`${CMS}?watch=true`))).toBe(false)
  })

  it('holds a seat while open; past the bound a 429 with Retry-After; back when closed', async () => {
    const w1 = await get(`${CMS}?watch=true`, 'a')
    const w2 = await get(`${CMS}?watch=true`, 'a')
    expect([w1.status, w2.status]).toEqual([200, 200])
    const third = await get(`${CMS}?watch=true`, 'a')
    expect(third.status).toBe(429)
    expect(third.headers.get('retry-after')).toBe('1')
    expect(await third.json()).toMatchObject({
      kind: 'Status',
      code: 429,
      reason: 'TooManyRequests',
      details: { retryAfterSeconds: 1 },
    })
    // another token, and an admin, are not held back; the token's plain requests neither
    const other = await get(`${CMS}?watch=true`, 'b')
    expect(other.status).toBe(200)
    const admin = await get(`${CMS}?watch=true`, ADMIN_TOKEN)
    expect(admin.status).toBe(200)
    expect((await get(CMS, 'a')).status).toBe(200)
    await w1.body?.cancel()
    expect(limiter.inFlight('user:user-a').watches).toBe(1)
    const again = await get(`${CMS}?watch=true`, 'a')
    expect(again.status).toBe(200)
    await Promise.all([w2, again, admin, other].map((r) => r.body?.cancel()))
    expect(limiter.inFlight('user:user-a')).toEqual({ requests: 0, watches: 0 })
  })

  it('gives its seat back when the hub ends it', async () => {
    const w = await get(`${CMS}?watch=true&timeoutSeconds=-1`, 'b')
    expect(w.status).toBe(200)
    await w.text()
    expect(limiter.inFlight('user:user-b')).toEqual({ requests: 0, watches: 0 })
  })
})

describe('a request', () => {
  it('holds a seat while it runs', async () => {
    let open: () => void = () => undefined
    const gate = new Promise<void>((resolve) => {
      open = resolve
    })
    // Both requests are known to be running once each has reached the store's list (no sleep: a
    // busy machine may take any time to get them there).
    let inside = 0
    let bothInside: () => void = () => undefined
    const reached = new Promise<void>((resolve) => {
      bothInside = resolve
    })
    const list = hub.deps.objects.list.bind(hub.deps.objects)
    hub.deps.objects.list = async (o) => {
      if (o.resource === 'configmaps') {
        inside += 1
        if (inside === 2) bothInside()
        await gate
      }
      return list(o)
    }
    try {
      const slow = [get(CMS, 'a'), get(CMS, 'a')]
      await reached
      expect(limiter.inFlight('user:user-a').requests).toBe(2)
      const refused = await get('/clusters/root/api/v1/namespaces', 'a')
      expect(refused.status).toBe(429)
      expect(((await refused.json()) as { message: string }).message).toContain(
        'requests in flight'
      )
      open()
      expect((await Promise.all(slow)).map((r) => r.status)).toEqual([200, 200])
      expect((await get('/clusters/root/api/v1/namespaces', 'a')).status).toBe(200)
    } finally {
      hub.deps.objects.list = list
    }
  })

  it('is refused past the rate, told when to come back, and admitted after', async () => {
    const rate = createTokenLimiter(
      { requests: 10, watches: 10, ratePerSecond: 1, burst: 2, ...events },
      () => now
    )
    const limited = createApp(() => hub.deps, { limiter: rate })
    const call = () =>
      limited.request(`${BASE}/clusters/root/api/v1/namespaces`, {
        headers: { authorization: 'Bearer a' },
      })
    expect((await call()).status).toBe(200)
    expect((await call()).status).toBe(200)
    const refused = await call()
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('1')
    now += 1000
    expect((await call()).status).toBe(200)
  })
})

describe("a watch's events", () => {
  it("are charged to its token's share, never to an admin's", async () => {
    const charged: [string, number][] = []
    const inner = createTokenLimiter(
      { requests: 10, watches: 10, ratePerSecond: 100, burst: 100, ...events },
      () => now
    )
    const counting = {
      ...inner,
      charge: (key: string, n: number) => {
        charged.push([key, n])
        return inner.charge(key, n)
      },
    }
    const paced = createApp(() => hub.deps, { limiter: counting })
    const watch = (token: string) =>
      paced.request(
        `${BASE}${CMS}?watch=true&sendInitialEvents=false&resourceVersionMatch=NotOlderThan&resourceVersion=0`,
        {
          headers: { authorization: `Bearer ${token}` },
        }
      )
    const mine = await watch('a')
    const admin = await watch(ADMIN_TOKEN)
    expect([mine.status, admin.status]).toEqual([200, 200])
    for (const name of ['paced-1', 'paced-2'])
      await hub.call('POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } })
    const reader = mine.body?.getReader()
    const decoder = new TextDecoder()
    let text = ''
    while (!text.includes('paced-2')) {
      const chunk = await reader?.read()
      if (!chunk || chunk.done) break
      text += decoder.decode(chunk.value)
    }
    expect(text).toContain('paced-2')
    await reader?.cancel()
    await admin.body?.cancel()
    expect(charged.length).toBeGreaterThan(0)
    expect(charged.every(([key]) => key === 'user:user-a')).toBe(true)
    expect(charged.reduce((n, [, k]) => n + k, 0)).toBeGreaterThanOrEqual(2)
  })
})
