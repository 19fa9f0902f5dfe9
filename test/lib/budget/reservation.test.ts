/**
 * Reservations (reservation.ts): a write reserves its subrequests before it starts, is refused
 * with a 429 (nothing sent) when they do not fit, draws on them while it runs, keeps other work
 * from taking them, and gives back what it did not use; one made inside another is carved from it.
 */
import { describe, expect, it } from 'vitest'
import { BudgetRefused, isBudgetExceeded } from '../../../lib/budget/budget-exceeded.ts'
import {
  currentInvocation,
  hasRoom,
  runInvocation,
  withReservations,
} from '../../../lib/budget/frames.ts'
import { reserveFor, reserveMore } from '../../../lib/budget/reservation.ts'
import { subrequest } from '../../../lib/budget/subrequest.ts'
import { takeViolations } from '../../../lib/budget/violations.ts'

const send = () => subrequest('Fake', async () => undefined)
const strict = { subrequests: 10, mode: 'strict' as const }

async function caught(p: Promise<unknown>): Promise<unknown> {
  try {
    await p
  } catch (e) {
    return e
  }
  return undefined
}

describe('reserveFor', () => {
  it('carves a nested reservation from the outer one, which gets back what it left', async () => {
    await runInvocation('hook', strict, async () => {
      const inv = currentInvocation()
      await reserveFor(8, async () => {
        // 8 + 6 would not fit beside each other in 10: the inner one is part of the outer's room.
        await reserveFor(6, async () => {
          await send()
          await send()
        })
        expect(inv?.reserved).toBe(6)
        for (let i = 0; i < 6; i++) await send()
      })
      expect(inv?.reserved).toBe(0)
      expect(inv?.subrequests).toBe(8)
    })
    expect(takeViolations()).toEqual([])
  })

  it('refuses a write that does not fit before it runs, with a 429 and retryAfterSeconds', async () => {
    let ran = false
    const e = await runInvocation('t', strict, async () => {
      for (let i = 0; i < 6; i++) await send()
      return caught(
        reserveFor(5, async () => {
          ran = true
        })
      )
    })
    expect(ran).toBe(false)
    expect(e).toBeInstanceOf(BudgetRefused)
    expect(isBudgetExceeded(e)).toBe(true)
    const status = (e as BudgetRefused).toStatus()
    expect([status.code, status.reason, status.details?.retryAfterSeconds]).toEqual([
      429,
      'TooManyRequests',
      1,
    ])
    expect(takeViolations()).toEqual([])
  })

  it('keeps the reserved room from other work and gives back what was not used', async () => {
    const seen = await runInvocation('t', strict, async () => {
      const inv = currentInvocation()
      let outside: unknown
      let during = 0
      await reserveFor(6, async () => {
        await send()
        during = inv?.reserved ?? -1
        // 4 sent or reserved by nobody else are left: a fifth outside the reservation is refused.
        for (let i = 0; i < 4; i++) await runOutside(send)
        outside = await caught(runOutside(send))
      })
      return { during, outside, after: inv?.reserved, used: inv?.subrequests, room: hasRoom(5) }
    })
    expect(seen.during).toBe(5)
    expect(isBudgetExceeded(seen.outside)).toBe(true)
    expect(seen.after).toBe(0)
    expect(seen.used).toBe(5)
    expect(seen.room).toBe(false)
    takeViolations()
  })

  it('draws innermost first and lets reserveMore grow the innermost, refusing past the budget', async () => {
    const seen = await runInvocation('t', strict, async () => {
      const inv = currentInvocation()
      return reserveFor(3, async () => {
        reserveMore(2)
        const grown = inv?.reserved
        const refused = await caught(Promise.resolve().then(() => reserveMore(6)))
        for (let i = 0; i < 5; i++) await send()
        return { grown, refused, left: inv?.reserved, used: inv?.subrequests }
      })
    })
    expect(seen.grown).toBe(5)
    expect(seen.refused).toBeInstanceOf(BudgetRefused)
    expect([seen.left, seen.used]).toEqual([0, 5])
    expect(takeViolations()).toEqual([])
  })

  it('counts refusals in the invocation figures', async () => {
    const stats = await runInvocation('t', strict, async () => {
      await caught(reserveFor(11, async () => undefined))
      return currentInvocation()?.stats()
    })
    expect(stats?.refused).toBe(1)
    expect(stats?.exceeded).toBe(false)
  })

  it('counts an overrun a write sends past what it reserved as an overrun in a write', async () => {
    const stats = await runInvocation('t', { subrequests: 3, mode: 'degrade' }, async () => {
      await reserveFor(3, async () => {
        for (let i = 0; i < 4; i++) await send()
      })
      return currentInvocation()?.stats()
    })
    expect([stats?.exceeded, stats?.overInWrites]).toEqual([true, 1])
    expect(takeViolations()).toHaveLength(1)
  })

  it('only runs the work outside an invocation', async () => {
    expect(await reserveFor(1_000_000, async () => 'ran')).toBe('ran')
  })
})

/** Runs `fn` as the invocation's other work: in the same invocation, outside any reservation. */
function runOutside<T>(fn: () => Promise<T>): Promise<T> {
  return withReservations([], fn)
}
