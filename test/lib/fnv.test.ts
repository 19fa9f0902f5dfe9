import { describe, expect, it } from 'vitest'
import { FNV_OFFSET_BASIS, fnv1a } from '../../lib/fnv.ts'

describe('fnv1a', () => {
  it("gives FNV-1a's published 32-bit values", () => {
    expect(fnv1a('')).toBe(0x811c9dc5)
    expect(fnv1a('a')).toBe(0xe40c292c)
    expect(fnv1a('foobar')).toBe(0xbf9cf968)
  })

  it('starts from another basis when given one', () => {
    expect(fnv1a('a', FNV_OFFSET_BASIS)).toBe(fnv1a('a'))
    expect(fnv1a('a', 1)).not.toBe(fnv1a('a'))
  })
})
