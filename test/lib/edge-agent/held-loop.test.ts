/**
 * The held loop (lib/edge-agent/held-loop.ts) with a real agent, its real center client and a
 * fake center (fake-center.ts) that holds polls or does not: a change reaches the edge while the
 * poll is held, long before the interval; interval polls keep reporting while a hold is open; an
 * old center (no Preference-Applied) gets plain interval polls; a center that is busy gets the
 * wait its Retry-After asks, never less than the backoff; the loop's stop signal keeps nothing of
 * the holds and waits that have ended.
 */
import { getEventListeners } from 'node:events'
import { describe, expect, it } from 'vitest'
import { createCenterClient } from '../../../lib/edge-agent/center-client.ts'
import { runHeldLoop } from '../../../lib/edge-agent/held-loop.ts'
import { retryAfterMemory } from '../../../lib/edge-agent/retry-after.ts'
import { followersOf } from '../../../lib/linked-signal.ts'
import { silentLogger } from '../../../lib/log.ts'
import { CENTER_TOKEN } from './fake-center.ts'
import { agentBench, cmRef, configMap, namespace, nsRef } from './fixture.ts'

const bench = agentBench('mb-held')

const until = async (what: () => boolean | Promise<boolean>, ms = 10_000) => {
  const end = Date.now() + ms
  while (!(await what())) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 20))
  }
}

async function start(o: { intervalMs: number; holdSeconds?: number; delays?: number[] }) {
  const retry = retryAfterMemory()
  const client = createCenterClient({
    baseUrl: bench.center.url,
    mailbox: bench.center.mailbox,
    token: async () => CENTER_TOKEN,
    onRetryAfter: retry.note,
  })
  const agent = await bench.agent({ center: client })
  const stop = new AbortController()
  const polls: string[] = []
  const loop = runHeldLoop({
    poll: async (given) => {
      polls.push(given ? given.kind : 'plain')
      return agent.poll(given)
    },
    hold: (v, h) => client.holdDesired!(v, h),
    version: () => agent.inspect().desired?.version,
    holdSeconds: o.holdSeconds ?? 30,
    intervalMs: o.intervalMs,
    retryAfterMs: retry.take,
    ...(o.delays
      ? {
          sleep: async (ms: number, signal: AbortSignal) => {
            o.delays?.push(ms)
            await new Promise<void>((r) => {
              const t = setTimeout(r, Math.min(ms, 50))
              const done = () => {
                clearTimeout(t)
                r()
              }
              signal.addEventListener('abort', done, { once: true })
            })
          },
        }
      : {}),
    signal: stop.signal,
    log: silentLogger,
  })
  return {
    agent,
    polls,
    signal: stop.signal,
    async stop() {
      stop.abort()
      await loop
    },
  }
}

const desiredGets = () => bench.center.requests.filter((r) => r.path.endsWith('/desired'))

describe('runHeldLoop', () => {
  it('applies a change while its poll is held, long before the interval', async () => {
    bench.center.holds = 30
    bench.center.put(nsRef('h1'), namespace('h1'))
    const run = await start({ intervalMs: 60_000 })
    await until(() => bench.center.holding() === 1)
    bench.center.put(cmRef('h1', 'a'), configMap('h1', 'a', { v: '1' }))
    await until(
      async () =>
        ((await bench.edge.get(cmRef('h1', 'a')))?.data as { v?: string } | undefined)?.v === '1'
    )
    await until(() => bench.center.holding() === 1)
    await run.stop()
    expect(run.polls).toEqual(['plain', 'desired'])
    const held = desiredGets().filter((r) => r.prefer === 'wait=30')
    expect(held.length).toBe(2)
    expect(held[0]?.ifNoneMatch).toBe('"1"')
  })

  it('keeps polling the copy it holds every interval while a hold is open, and reports', async () => {
    bench.center.holds = 30
    bench.center.put(nsRef('h2'), namespace('h2'))
    bench.center.put(cmRef('h2', 'a'), configMap('h2', 'a', { v: '1' }))
    const run = await start({ intervalMs: 100 })
    await until(() => run.polls.filter((p) => p === 'unchanged').length >= 3)
    // Drift at the edge is reverted by an interval poll, without asking the center again.
    await bench.edge.call(
      'PATCH',
      '/api/v1/namespaces/h2/configmaps/a',
      { data: { v: 'x' } },
      {
        contentType: 'application/merge-patch+json',
      }
    )
    await until(
      async () =>
        ((await bench.edge.get(cmRef('h2', 'a')))?.data as { v?: string } | undefined)?.v === '1'
    )
    await run.stop()
    expect(desiredGets().length).toBe(2)
    expect(bench.center.reports.length).toBeGreaterThanOrEqual(1)
    expect(bench.center.reports[0]?.heartbeat).toBe(true)
  })

  it('falls back to plain interval polls when the answer lacks Preference-Applied', async () => {
    bench.center.holds = undefined
    bench.center.put(nsRef('h3'), namespace('h3'))
    const run = await start({ intervalMs: 50 })
    await until(() => desiredGets().length >= 6)
    await run.stop()
    const gets = desiredGets()
    expect(gets[1]?.prefer).toBe('wait=30')
    expect(gets.slice(2).every((r) => r.prefer === undefined)).toBe(true)
    expect(run.polls.filter((p) => p === 'plain').length).toBeGreaterThanOrEqual(4)
  })

  it('waits what a busy center’s Retry-After asks, and its backoff when none is named', async () => {
    bench.center.holds = 30
    bench.center.put(nsRef('h4'), namespace('h4'))
    bench.center.mode = 'busy'
    bench.center.retryAfter = '7'
    const delays: number[] = []
    const run = await start({ intervalMs: 100, delays })
    await until(() => delays.length >= 1)
    bench.center.retryAfter = undefined
    await until(() => delays.length >= 2)
    bench.center.mode = 'up'
    await until(() => bench.center.holding() === 1)
    await run.stop()
    expect(delays[0]).toBe(7000)
    // Without a Retry-After, the backoff of a second failure (100 to 200 ms, jittered).
    expect(delays[1]).toBeGreaterThanOrEqual(100)
    expect(delays[1]).toBeLessThanOrEqual(200)
  })

  it('keeps nothing of past holds and interval waits on its stop signal', async () => {
    bench.center.holds = 30
    bench.center.put(nsRef('h5'), namespace('h5'))
    const run = await start({ intervalMs: 20 })
    for (const v of ['1', '2', '3', '4', '5']) {
      await until(() => bench.center.holding() === 1)
      bench.center.put(cmRef('h5', 'a'), configMap('h5', 'a', { v }))
      await until(
        async () =>
          ((await bench.edge.get(cmRef('h5', 'a')))?.data as { v?: string } | undefined)?.v === v
      )
    }
    await until(() => run.polls.filter((p) => p === 'unchanged').length >= 20)
    // The open hold and the interval's wait at most follow it, through one listener; and none of
    // Node's records of signals combined with it (AbortSignal.any kept every observed one).
    expect(followersOf(run.signal)).toBeLessThanOrEqual(2)
    expect(getEventListeners(run.signal, 'abort').length).toBeLessThanOrEqual(1)
    const dependants = Object.getOwnPropertySymbols(run.signal).find(
      (k) => k.description === 'kDependantSignals'
    )
    const kept = dependants
      ? (run.signal as unknown as Record<symbol, Set<unknown>>)[dependants]
      : undefined
    expect(kept?.size ?? 0).toBe(0)
    await run.stop()
    expect(followersOf(run.signal)).toBe(0)
  })
})
