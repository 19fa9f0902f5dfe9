import { describe, expect, it } from 'vitest'
import { inProcessBell } from '../../../lib/edge/bell.ts'

const rings = (entries: Record<string, number>) => new Map(Object.entries(entries))

describe('inProcessBell', () => {
  it('answers at once a wait that starts after a ring above its version', async () => {
    const bell = inProcessBell()
    await bell.ring(rings({ a: 5 }))
    expect(await bell.wait('a', 4, { timeoutMs: 10_000 })).toBe('rung')
    expect(bell.waiting()).toBe(0)
  })

  it('holds a wait whose version is the one rung, until the next ring', async () => {
    const bell = inProcessBell()
    await bell.ring(rings({ a: 5 }))
    const held = bell.wait('a', 5, { timeoutMs: 10_000 })
    expect(bell.waiting()).toBe(1)
    await bell.ring(rings({ a: 5, b: 9 }))
    expect(bell.waiting()).toBe(1)
    await bell.ring(rings({ a: 6 }))
    expect(await held).toBe('rung')
    expect(bell.rungVersion('a')).toBe(6)
  })

  it('times out at the end of the hold, and at once for a hold of 0', async () => {
    const bell = inProcessBell()
    expect(await bell.wait('a', 1, { timeoutMs: 20 })).toBe('timeout')
    expect(await bell.wait('a', 1, { timeoutMs: 0 })).toBe('timeout')
    expect(bell.waiting()).toBe(0)
  })

  it('ends a wait when its signal aborts', async () => {
    const bell = inProcessBell()
    const stop = new AbortController()
    const held = bell.wait('a', 1, { timeoutMs: 10_000, signal: stop.signal })
    stop.abort()
    expect(await held).toBe('timeout')
    expect(bell.waiting()).toBe(0)
  })

  it('answers many waiters of one key with one ring, and leaves other keys waiting', async () => {
    const bell = inProcessBell()
    const many = Array.from({ length: 100 }, () => bell.wait('a', 3, { timeoutMs: 10_000 }))
    const other = bell.wait('b', 3, { timeoutMs: 10_000 })
    const older = bell.wait('a', 7, { timeoutMs: 10_000 })
    await bell.ring(rings({ a: 4 }))
    expect(await Promise.all(many)).toEqual(many.map(() => 'rung'))
    expect(bell.waiting()).toBe(2)
    bell.close()
    expect([await other, await older]).toEqual(['timeout', 'timeout'])
    expect(await bell.wait('c', 0, { timeoutMs: 10_000 })).toBe('timeout')
  })

  it('never lowers a remembered version, and forgets past its limit without answering wrongly', async () => {
    const bell = inProcessBell(2)
    await bell.ring(rings({ a: 9 }))
    await bell.ring(rings({ a: 3 }))
    expect(bell.rungVersion('a')).toBe(9)
    await bell.ring(rings({ b: 1, c: 1 }))
    expect(bell.rungVersion('a')).toBeUndefined()
    expect(await bell.wait('a', 9, { timeoutMs: 10 })).toBe('timeout')
  })

  it('answers a wait when one of its other keys (a shared manifest) is rung above its version', async () => {
    const bell = inProcessBell()
    const held = bell.wait('a', 5, { timeoutMs: 10_000, also: ['shared:x'] })
    await bell.ring(rings({ 'shared:x': 6 }))
    expect(await held).toBe('rung')
    expect(bell.waiting()).toBe(0)
    expect(await bell.wait('b', 5, { timeoutMs: 10_000, also: ['shared:x'] })).toBe('rung')
    expect(await bell.wait('b', 6, { timeoutMs: 10, also: ['shared:x'] })).toBe('timeout')
  })
})
