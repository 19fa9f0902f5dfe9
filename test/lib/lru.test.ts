/** The bounded memo: computes once per kept key, drops the least recently used, forgets on ask. */
import { describe, expect, it } from 'vitest'
import { createLru } from '../../lib/lru.ts'

describe('lru', () => {
  it('computes a key once while kept, and drops the least recently used past its limit', () => {
    const lru = createLru<string>(2)
    const computed: string[] = []
    const get = (k: string) =>
      lru.get(k, () => {
        computed.push(k)
        return k.toUpperCase()
      })
    expect(get('a')).toBe('A')
    get('b')
    get('a')
    get('c')
    expect(lru.size()).toBe(2)
    get('a')
    get('b')
    expect(computed).toEqual(['a', 'b', 'c', 'b'])
  })

  it('keeps a falsy value as a value, and forgets a key only while it holds the value named', () => {
    const lru = createLru<number>(4)
    let n = 0
    expect(lru.get('z', () => 0)).toBe(0)
    expect(lru.get('z', () => ++n)).toBe(0)
    lru.forget('z', 5)
    expect(lru.get('z', () => ++n)).toBe(0)
    lru.forget('z', 0)
    expect(lru.get('z', () => ++n)).toBe(1)
  })
})
