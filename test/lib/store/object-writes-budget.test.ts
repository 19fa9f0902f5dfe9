/**
 * Object writes within a subrequest budget (object-writes.ts with lib/budget/reservation.ts): a
 * write that no longer fits is refused with 429 before it sends anything, never cut between its
 * head and its change-log entry, so the log replayed from the start holds exactly the stored
 * objects and the log check (log-check.ts) finds nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isBudgetExceeded } from '../../../lib/budget/budget-exceeded.ts'
import { runInvocation } from '../../../lib/budget/frames.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { replayLog, storedNames } from '../../helpers/log-replay.ts'
import { cmKey, configMap, configMaps } from './fixtures.ts'

let t: TestStore
beforeAll(async () => {
  t = await createTestStore()
})
afterAll(() => t.close())

const strict = (subrequests: number) => ({ subrequests, mode: 'strict' as const })

/**
 * Budgets a few apart, so that one of them runs out at each request of a write (counter, head,
 * log entry): whichever request the last write would have been cut at, nothing is half done.
 */
const BUDGETS = [40, 41, 42]

/** Runs `write` for each name in order until one is refused; returns the names done. */
async function untilRefused(names: string[], write: (name: string) => Promise<unknown>) {
  const done: string[] = []
  let refusal: unknown
  for (const name of names) {
    try {
      await write(name)
      done.push(name)
    } catch (e) {
      refusal = e
      break
    }
  }
  return { done, refusal }
}

describe('object writes past the budget', () => {
  const names = Array.from({ length: 30 }, (_, i) => `cm-${String(i).padStart(2, '0')}`)

  it.each(BUDGETS)('creates until one is refused before it writes (budget %i)', async (b) => {
    const ns = `creates-${b}`
    const ref = configMaps('c1', ns)
    const { done, refusal } = await runInvocation('test', strict(b), () =>
      untilRefused(names, (n) => t.objects.create(cmKey(n, ns), configMap(n, ns)))
    )
    const stored = await storedNames(t.objects, ref)
    expect(await replayLog(t.objects, ref)).toEqual(stored)
    expect(isBudgetExceeded(refusal)).toBe(true)
    expect((refusal as { code: number }).code).toBe(429)
    expect(done.length).toBeGreaterThan(0)
    expect(stored.map((l) => l.split('@')[0])).toEqual(done.map((n) => `${ns}/${n}`))
  })

  it.each(BUDGETS)('deletes until one is refused, each logged DELETED (budget %i)', async (b) => {
    const ns = `deletes-${b}`
    const ref = configMaps('c1', ns)
    for (const n of names) await t.objects.create(cmKey(n, ns), configMap(n, ns))
    const { done, refusal } = await runInvocation('test', strict(b), () =>
      untilRefused(names, (n) => t.objects.delete(cmKey(n, ns)))
    )
    const stored = await storedNames(t.objects, ref)
    expect(await replayLog(t.objects, ref)).toEqual(stored)
    expect(isBudgetExceeded(refusal)).toBe(true)
    expect(done.length).toBeGreaterThan(0)
    expect(stored).toHaveLength(names.length - done.length)
  })

  it.each(BUDGETS)('updates refused leave the object at its logged version (%i)', async (b) => {
    const ns = `updates-${b}`
    const ref = configMaps('c1', ns)
    const made = await t.objects.create(cmKey('u', ns), configMap('u', ns))
    let rv = made.metadata.resourceVersion ?? ''
    const { refusal } = await runInvocation('test', strict(b), () =>
      untilRefused(names, async (n) => {
        const next = await t.objects.update(
          cmKey('u', ns),
          { ...configMap('u', ns), data: { n } },
          rv
        )
        rv = next.metadata.resourceVersion ?? ''
      })
    )
    const stored = await storedNames(t.objects, ref)
    expect(await replayLog(t.objects, ref)).toEqual(stored)
    expect(isBudgetExceeded(refusal)).toBe(true)
    expect(stored).toEqual([`${ns}/u@${rv}`])
  })

  it('leaves nothing the log check reports', async () => {
    const report = await t.checkLog()
    expect(report.findings).toEqual([])
    expect(report.objects).toBeGreaterThan(0)
  })
})
