import { describe, expect, it } from 'vitest'
import { BoundedMap } from '../../lib/bounded-map.ts'

describe('bounded map', () => {
  it('drops the entry written longest ago, one at a time, past its limit', () => {
    const m = new BoundedMap<string, number>(3)
    m.set('a', 1).set('b', 2).set('c', 3)
    m.set('d', 4)
    expect([...m.keys()]).toEqual(['b', 'c', 'd'])
    expect(m.get('a')).toBeUndefined()
    expect(m.size).toBe(3)
  })

  it('counts a key written again as new, and a read as nothing', () => {
    const m = new BoundedMap<string, number>(2)
    m.set('a', 1).set('b', 2)
    expect(m.get('a')).toBe(1)
    m.set('c', 3)
    expect([...m.entries()]).toEqual([
      ['b', 2],
      ['c', 3],
    ])
    m.set('b', 20)
    m.set('d', 4)
    expect([...m.entries()]).toEqual([
      ['b', 20],
      ['d', 4],
    ])
  })

  it('is a Map otherwise, and refuses a limit that holds nothing', () => {
    const m = new BoundedMap<string, number>(5)
    m.set('x', 1)
    expect(m instanceof Map).toBe(true)
    expect(m.delete('x')).toBe(true)
    expect(m.size).toBe(0)
    expect(() => new BoundedMap(0)).toThrow(RangeError)
    expect(() => new BoundedMap(1.5)).toThrow(RangeError)
  })
})
