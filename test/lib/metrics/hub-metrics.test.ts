/**
 * HubMetrics over a real store (dynalite): the first request of an isolate flushes at once, later
 * ones only after the interval (a clock the test moves, no waiting); a flush sends everything held,
 * one UpdateItem for a small delta; deltas of a throttled flush are sent with the next one, those
 * of a flush that may have landed are dropped and counted; `totals()` includes this isolate's
 * latest deltas.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { HubMetrics } from '../../../lib/metrics/hub-metrics.ts'
import type { FaultCall } from '../../../lib/store/dynamo-client.ts'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'

const labels = { verb: 'get', route: 'resource', resource: 'core/pods' }
let store: TestStore | undefined
afterEach(async () => {
  await store?.close()
  store = undefined
})

function setup(fault?: (call: FaultCall) => void) {
  let clock = 1_000_000
  const counter = createRequestCounter()
  return {
    counter,
    tick: (ms: number) => {
      clock += ms
    },
    open: async () => {
      store = await createTestStore({ counter, ...(fault ? { fault } : {}) })
      const m = new HubMetrics({
        sink: store.metrics,
        shard: 2,
        flushEveryMs: 30_000,
        now: () => clock,
      })
      return { m, s: store }
    },
  }
}

describe('HubMetrics', () => {
  it('flushes the first request at once, then at most once per interval', async () => {
    const t = setup()
    const { m, s } = await t.open()
    const pending: Promise<unknown>[] = []
    const bg = (p: Promise<unknown>) => pending.push(p)
    m.request(labels, 200, 0.01)
    m.maybeFlush(bg)
    expect(pending).toHaveLength(1)
    await Promise.all(pending)
    m.request(labels, 200, 0.01)
    t.tick(29_000)
    m.maybeFlush(bg)
    expect(pending).toHaveLength(1)
    t.tick(1_000)
    t.counter.reset()
    m.maybeFlush(bg)
    expect(pending).toHaveLength(2)
    await Promise.all(pending)
    expect(t.counter.snapshot()).toEqual({ UpdateItem: 1 })
    const totals = await s.metrics.read()
    expect(totals.get('rq|get|resource|core/pods|200')).toBe(2)
    expect(totals.get('rd|get|resource|count')).toBe(2)
    expect(totals.get('mf|ok')).toBe(1) // the first flush's own count went with the second
  })

  it('sends throttled deltas again with the next flush; drops what may have landed', async () => {
    let fail: string | undefined
    const t = setup((call) => {
      if (call.op !== 'UpdateItem' || call.phase !== 'before' || !fail) return
      const e = new Error('injected')
      e.name = fail
      fail = undefined
      throw e
    })
    const { m, s } = await t.open()
    m.reconcile('translate', 'ok', 0.2)
    fail = 'ProvisionedThroughputExceededException'
    await m.flush()
    expect((await s.metrics.read()).size).toBe(0)
    await m.flush()
    let totals = await s.metrics.read()
    expect(totals.get('rc|translate|ok')).toBe(1)
    expect(totals.get('mf|retry')).toBe(1)
    m.reconcile('translate', 'error', 0.1)
    fail = 'TimeoutError'
    await m.flush()
    totals = await m.totals()
    expect(totals.get('rc|translate|error')).toBeUndefined()
    expect(totals.get('rc|translate|ok')).toBe(1)
    expect(totals.get('mf|dropped')).toBe(1)
  })
})
