/**
 * CPU accounting is off unless enabled; once on, every invocation started since, concurrent ones
 * included, carries its own CPU figure, and one started before carries none. The figures themselves are the bench's (no timings asserted here).
 */
import { afterEach, describe, expect, it } from 'vitest'
import { disableCpuAccounting, enableCpuAccounting } from '../../../lib/budget/cpu-accounting.ts'
import { currentInvocation, runInvocation } from '../../../lib/budget/frames.ts'

afterEach(() => disableCpuAccounting())

const tick = () => new Promise((r) => setTimeout(r, 1))

describe('CPU accounting', () => {
  it('leaves invocations without a CPU figure while off', async () => {
    const stats = await runInvocation('api', {}, async () => {
      await tick()
      return currentInvocation()!.stats()
    })
    expect(stats.cpuMs).toBeUndefined()
  })

  it('charges each invocation its own callbacks once on', async () => {
    enableCpuAccounting(() => currentInvocation())
    const stats = await Promise.all(
      ['a', 'b'].map((kind) =>
        runInvocation(kind, {}, async () => {
          for (let i = 0; i < 3; i++) await tick()
          return currentInvocation()!.stats()
        })
      )
    )
    for (const s of stats) expect(s.cpuMs).toBeGreaterThanOrEqual(0)
    expect(stats.map((s) => typeof s.cpuMs)).toEqual(['number', 'number'])
  })

  it('leaves an invocation started before it was on without a CPU figure', async () => {
    let release = () => {}
    const started = new Promise<void>((r) => {
      release = r
    })
    const older = runInvocation('watch', {}, async () => {
      await started
      await tick()
      return currentInvocation()!.stats()
    })
    enableCpuAccounting(() => currentInvocation())
    release()
    expect((await older).cpuMs).toBeUndefined()
  })
})
