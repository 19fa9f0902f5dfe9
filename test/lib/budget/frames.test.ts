/**
 * The per-invocation context over a real store: concurrent invocations over one shared client
 * count apart, a nested run joins the outer one, strict mode refuses the subrequest past the
 * budget with a 429 Status while degrade mode sends it, both logging one error line and recording
 * a violation; ceilings, measured scopes and held invocations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isBudgetExceeded } from '../../../lib/budget/budget-exceeded.ts'
import {
  chargeScopes,
  currentInvocation,
  hasRoom,
  measured,
  measuredApart,
  measuringScopes,
  runInvocation,
  withCeiling,
  withShare,
} from '../../../lib/budget/frames.ts'
import type { InvocationStats } from '../../../lib/budget/invocation.ts'
import { takeViolations } from '../../../lib/budget/violations.ts'
import { createLogger } from '../../../lib/log.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { cmKey, configMap } from '../store/fixtures.ts'

let t: TestStore
beforeAll(async () => {
  t = await createTestStore()
  await t.objects.create(cmKey('a'), configMap('a'))
})
afterAll(() => t.close())

const gets = (n: number) => Promise.all(Array.from({ length: n }, () => t.objects.get(cmKey('a'))))
const pause = () => new Promise((r) => setTimeout(r, 1))

describe('runInvocation', () => {
  it('counts concurrent invocations over one client separately', async () => {
    const ends: InvocationStats[] = []
    const onEnd = (s: InvocationStats) => ends.push(s)
    const run = (kind: string, n: number) =>
      runInvocation(kind, { onEnd }, async () => {
        for (let i = 0; i < n; i++) {
          await gets(1)
          await pause()
        }
        return currentInvocation()?.subrequests
      })
    const [a, b] = await Promise.all([run('a', 3), run('b', 7)])
    expect([a, b]).toEqual([3, 7])
    expect(ends.map((s) => [s.kind, s.subrequests, s.ops])).toEqual(
      expect.arrayContaining([
        ['a', 3, { GetItem: 3 }],
        ['b', 7, { GetItem: 7 }],
      ])
    )
    expect(currentInvocation()).toBeUndefined()
  })

  it('keeps no more than 6 requests of one invocation in flight', async () => {
    const stats = await runInvocation('api', {}, async () => {
      await gets(20)
      return currentInvocation()!.stats()
    })
    expect(stats.subrequests).toBe(20)
    expect(stats.maxInFlight).toBe(6)
  })

  it('joins the outer invocation when nested', async () => {
    const counts = await runInvocation('outer', {}, async () => {
      await runInvocation('inner', {}, () => gets(2))
      const inv = currentInvocation()!
      return [inv.kind, inv.subrequests]
    })
    expect(counts).toEqual(['outer', 2])
  })

  it('refuses the subrequest past the budget in strict mode, with a 429 Status', async () => {
    const lines: string[] = []
    const log = createLogger({ sink: (line) => lines.push(line) })
    const err = await runInvocation('api', { subrequests: 3, mode: 'strict', log }, async () => {
      await gets(3)
      return t.objects.get(cmKey('a')).catch((e: unknown) => e)
    })
    expect(isBudgetExceeded(err)).toBe(true)
    expect(isBudgetExceeded(err) && err.toStatus()).toMatchObject({
      code: 429,
      reason: 'TooManyRequests',
    })
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({ level: 'error', msg: 'subrequest budget exceeded', budget: 3 }),
    ])
    expect(takeViolations()).toEqual([
      {
        kind: 'api',
        budget: 3,
        mode: 'strict',
        op: 'GetItem',
        inWrite: false,
        ops: { GetItem: 3 },
      },
    ])
  })

  it('sends it anyway in degrade mode, logging once', async () => {
    const lines: string[] = []
    const log = createLogger({ sink: (line) => lines.push(line) })
    const stats = await runInvocation('api', { subrequests: 2, log }, async () => {
      await gets(4)
      return currentInvocation()!.stats()
    })
    expect(stats).toMatchObject({ subrequests: 4, exceeded: true, budget: 2 })
    expect(lines).toHaveLength(1)
    expect(takeViolations()).toHaveLength(1)
  })
})

describe('ceilings, scopes and holds', () => {
  it('hasRoom follows the current ceiling, and measured counts its own subrequests', async () => {
    expect(hasRoom(1_000_000)).toBe(true)
    await runInvocation('api', { subrequests: 100 }, async () => {
      expect(hasRoom(85)).toBe(true)
      expect(hasRoom(86)).toBe(false)
      await withCeiling(10, async () => {
        await gets(4)
        expect([hasRoom(6), hasRoom(7)]).toEqual([true, false])
        const [x, y] = await Promise.all([measured(() => gets(2)), measured(() => gets(3))])
        expect([x.used, y.used]).toEqual([2, 3])
      })
      expect(currentInvocation()!.subrequests).toBe(9)
    })
  })

  it('measures shared work apart from the unit that started it, and charges each unit a share', async () => {
    await runInvocation('hook', { subrequests: 100 }, async () => {
      let captured: readonly { used: number }[] = []
      const outer = await measured(async () => {
        await gets(1)
        captured = measuringScopes()
        const shared = await measuredApart(() => gets(6))
        expect(shared.used).toBe(6)
        chargeScopes(captured, shared.used / 3)
      })
      // The unit paid its own read and a third of the shared six, not all of them.
      expect(outer.used).toBe(3)
      expect(captured).toHaveLength(1)
      // The invocation counted every subrequest once.
      expect(currentInvocation()!.subrequests).toBe(7)
    })
    expect(measuringScopes()).toEqual([])
    expect((await measuredApart(() => gets(1))).used).toBe(0)
  })

  it('withShare sets the ceiling at a share of the budget, and bounds nothing outside one', async () => {
    expect(await withShare(0.1, async () => hasRoom(1_000_000))).toBe(true)
    await runInvocation('api', { subrequests: 200 }, () =>
      withShare(0.1, async () => {
        expect([hasRoom(20), hasRoom(21)]).toEqual([true, false])
      })
    )
  })

  it('ends a held invocation only when the hold is released', async () => {
    const ends: InvocationStats[] = []
    let release = () => {}
    await runInvocation('watch', { onEnd: (s) => ends.push(s) }, async () => {
      release = currentInvocation()!.hold()
    })
    expect(ends).toEqual([])
    release()
    release()
    expect(ends.map((s) => s.kind)).toEqual(['watch'])
  })
})
