/** waitUntil (test/helpers/wait-until.ts): true once the condition holds, false past the bound. */
import { describe, expect, it } from 'vitest'
import { waitUntil } from './wait-until.ts'

describe('waitUntil', () => {
  it('resolves true as soon as a (sync or async) condition holds', async () => {
    let n = 0
    expect(await waitUntil(() => ++n >= 3, { everyMs: 1 })).toBe(true)
    expect(n).toBe(3)
    expect(await waitUntil(async () => true)).toBe(true)
  })

  it('resolves false once the bound has passed without the condition', async () => {
    let checks = 0
    const came = await waitUntil(
      () => {
        checks++
        return false
      },
      { withinMs: 30, everyMs: 5 }
    )
    expect(came).toBe(false)
    expect(checks).toBeGreaterThan(1)
  })
})
