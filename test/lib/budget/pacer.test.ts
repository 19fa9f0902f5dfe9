/**
 * The pacer starts units while the projected cost of those running and the next fits under the
 * ceiling (learning the cost from the units it measured), always lets the first start below the
 * ceiling, and starts everything outside an invocation.
 */
import { describe, expect, it } from 'vitest'
import { currentFrame, runInvocation, withCeiling } from '../../../lib/budget/frames.ts'
import { createPacer } from '../../../lib/budget/pacer.ts'
import { subrequest } from '../../../lib/budget/subrequest.ts'

/** A unit costing `cost` subrequests (no I/O: the gate counts what it is given). */
async function unit(cost: number) {
  for (let i = 0; i < cost; i++) await subrequest('Fake', async () => undefined)
}

async function startable(ceiling: number, cost: number, estimate: number, concurrency: number) {
  return runInvocation('hook', { subrequests: 1000 }, () =>
    withCeiling(ceiling, async () => {
      const pacer = createPacer(estimate)
      let started = 0
      let running = 0
      const worker = async () => {
        while (pacer.mayStart(running, started)) {
          started++
          running++
          await pacer.run(() => unit(cost))
          running--
        }
      }
      await Promise.all(Array.from({ length: concurrency }, worker))
      return [started, currentFrame()!.invocation.subrequests]
    })
  )
}

describe('createPacer', () => {
  it('stops starting units before their projected cost passes the ceiling', async () => {
    // One at a time, cost 10 under 100: ten fit exactly.
    expect(await startable(100, 10, 10, 1)).toEqual([10, 100])
    // Four at a time: a unit starts only while the running ones and it still fit.
    const [started, used] = (await startable(100, 10, 10, 4)) as [number, number]
    expect(used).toBeLessThanOrEqual(100)
    expect(started).toBeGreaterThanOrEqual(7)
  })

  it('learns a unit costs more than estimated, and always starts the first', async () => {
    const [started, used] = (await startable(100, 40, 1, 1)) as [number, number]
    expect([started, used]).toEqual([2, 80])
    expect(await startable(5, 40, 1000, 1)).toEqual([1, 40])
  })

  it("leaves the batch's first unit, which pays the shared reads, out of the estimate", async () => {
    const widest = await runInvocation('hook', { subrequests: 1000 }, () =>
      withCeiling(100, async () => {
        const pacer = createPacer(1)
        let started = 0
        let running = 0
        let most = 0
        // The first unit costs 40 (a snapshot); every other 1, and holds on until the test ends
        // its wave, so `running` shows how many the pacer lets run at once.
        let release: () => void = () => undefined
        const held = new Promise<void>((r) => {
          release = r
        })
        const first = pacer.run(() => unit(40))
        started++
        await first
        const second = pacer.run(() => unit(1))
        started++
        await second
        const wave: Promise<void>[] = []
        while (pacer.mayStart(running, started) && started < 200) {
          started++
          running++
          most = Math.max(most, running)
          wave.push(pacer.run(() => unit(1).then(() => held)))
        }
        release()
        await Promise.all(wave)
        return most
      })
    )
    // 41 used of 100, and each unit spends its 1 as it starts while 1 more is projected for it:
    // 30 run at once, where counting the first unit's 40 for each would have let 1 run.
    expect(widest).toBe(30)
  })

  it('starts everything outside an invocation', async () => {
    const pacer = createPacer(1000)
    expect(pacer.mayStart(100, 100)).toBe(true)
    expect(await pacer.run(async () => 'ran')).toBe('ran')
  })
})
