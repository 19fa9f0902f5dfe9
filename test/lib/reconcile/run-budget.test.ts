/**
 * runBatch and resyncPage within an invocation's budget: keys start in order while their
 * projected cost fits under the ceiling, the rest come back deferred (never run), and a resync
 * page cut short resumes next time after the last key it started, so the pass still covers every
 * key exactly once. Outside an invocation a batch runs everything. A key refused for want of
 * budget, or that continues in a fresh invocation by design (BudgetDeferred), is deferred.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BudgetDeferred, BudgetRefused } from '../../../lib/budget/budget-exceeded.ts'
import { runInvocation, withCeiling } from '../../../lib/budget/frames.ts'
import type { InvocationStats } from '../../../lib/budget/invocation.ts'
import { subrequest } from '../../../lib/budget/subrequest.ts'
import { silentLogger } from '../../../lib/log.ts'
import { resyncPage, runBatch } from '../../../lib/reconcile/run.ts'
import type { Controller } from '../../../lib/reconcile/types.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'

const KEYS = Array.from({ length: 12 }, (_, i) => `k${String(i).padStart(2, '0')}`)

/** A step whose every key costs 10 subrequests (counted by the budget gate, no I/O). */
function costly(concurrency = 1) {
  const seen: string[] = []
  const c: Controller = {
    name: 'costly',
    concurrency,
    async reconcile(key) {
      seen.push(key)
      for (let i = 0; i < 10; i++) await subrequest('Fake', async () => undefined)
      return { outcome: 'done' }
    },
    async listKeys(cursor, limit) {
      const all = KEYS.filter((k) => cursor === undefined || k > cursor)
      const keys = all.slice(0, limit)
      return all.length > limit ? { keys, next: keys[keys.length - 1] } : { keys }
    },
  }
  return { c, seen }
}

const within = <T>(ceiling: number, fn: () => Promise<T>) =>
  runInvocation('test', { subrequests: 1000, mode: 'strict' }, () => withCeiling(ceiling, fn))

describe('runBatch', () => {
  it('defers, in order, the keys that would not fit under the ceiling', async () => {
    const { c, seen } = costly(3)
    const { results, deferred } = await within(55, () => runBatch(c, KEYS, silentLogger))
    expect(results.length).toBeGreaterThanOrEqual(3)
    expect(results.length * 10).toBeLessThanOrEqual(60)
    expect(seen.sort()).toEqual(results.map((r) => r.key).sort())
    expect([...results.map((r) => r.key), ...deferred]).toEqual(KEYS)
  })

  it('runs everything outside an invocation', async () => {
    const { c } = costly(3)
    const { results, deferred } = await runBatch(c, KEYS, silentLogger)
    expect([results.length, deferred]).toEqual([12, []])
  })
})

describe('resyncPage within a budget', () => {
  let store: TestStore
  beforeAll(async () => {
    store = await createTestStore()
  })
  afterAll(() => store.close())

  it('resumes after the last key it started, covering every key once per pass', async () => {
    const { c, seen } = costly()
    const pages = []
    for (let tick = 0; tick < 10; tick++) {
      const page = await within(40, () => resyncPage(c, store.kv, { log: silentLogger, limit: 5 }))
      pages.push(page)
      if (page.wrapped) break
    }
    expect(seen).toEqual(KEYS)
    expect(pages.every((p) => p.ran <= 4)).toBe(true)
    expect(pages.some((p) => p.deferred > 0)).toBe(true)
    expect(pages[pages.length - 1]?.wrapped).toBe(true)
  })
})

describe('a key refused for want of budget', () => {
  let store: TestStore
  beforeAll(async () => {
    store = await createTestStore()
  })
  afterAll(() => store.close())

  /** A step whose keys `refuse` are refused by the budget (a write that found no room). */
  function refusing(refuse: Set<string>) {
    const c: Controller = {
      name: 'refusing',
      async reconcile(key) {
        if (refuse.has(key)) throw new BudgetRefused('test', 1000, 6)
        return { outcome: 'done' }
      },
      async listKeys(cursor, limit) {
        const all = KEYS.filter((k) => cursor === undefined || k > cursor)
        const keys = all.slice(0, limit)
        return all.length > limit ? { keys, next: keys[keys.length - 1] } : { keys }
      },
    }
    return c
  }

  it('is deferred, in order, not failed', async () => {
    const c = refusing(new Set(['k03', 'k07']))
    const { results, deferred } = await within(1000, () => runBatch(c, KEYS, silentLogger))
    expect(deferred).toEqual(['k03', 'k07'])
    expect(results.map((r) => r.key)).toEqual(KEYS.filter((k) => k !== 'k03' && k !== 'k07'))
    expect(results.every((r) => r.ok)).toBe(true)
  })

  it('makes a resync page resume before it', async () => {
    const c = refusing(new Set(['k02']))
    await store.kv.put('resync', c.name, {})
    const page = await within(1000, () => resyncPage(c, store.kv, { log: silentLogger, limit: 5 }))
    expect(page).toMatchObject({ failed: 0, deferred: 1, wrapped: false })
    const kept = await store.kv.get<{ cursor?: string }>('resync', c.name)
    expect(kept?.value.cursor).toBe('k01')
  })

  it('is deferred when it continues in a fresh invocation by design, counted as no refusal', async () => {
    const c: Controller = {
      name: 'paging',
      async reconcile(key) {
        if (key === 'k01') throw new BudgetDeferred('test', 1000, 'the pages of k01')
        return { outcome: 'done' }
      },
      listKeys: async () => ({ keys: KEYS }),
    }
    const stats: InvocationStats[] = []
    const { results, deferred } = await runInvocation(
      'test',
      { subrequests: 1000, mode: 'strict', onEnd: (s) => stats.push(s) },
      () => runBatch(c, KEYS.slice(0, 3), silentLogger)
    )
    expect(deferred).toEqual(['k01'])
    expect(results.map((r) => r.key)).toEqual(['k00', 'k02'])
    expect(stats.map((s) => [s.refused, s.exceeded])).toEqual([[0, false]])
  })
})
