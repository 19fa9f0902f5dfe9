/**
 * Tests for JSON pointers (RFC 6901): parsing with `~0`/`~1` escapes, formatting, strict array
 * indexes (`-` only where allowed, no leading zeros) and reading values without the prototype.
 */
import { describe, expect, it } from 'vitest'
import {
  arrayIndex,
  formatPointer,
  parsePointer,
  valueAt,
} from '../../../lib/patch/json-pointer.ts'

describe('JSON pointers', () => {
  it('parses and formats tokens with escapes', () => {
    expect(parsePointer('')).toEqual([])
    expect(parsePointer('/')).toEqual([''])
    expect(parsePointer('/a~1b/c~0d/~01')).toEqual(['a/b', 'c~d', '~1'])
    expect(parsePointer('a')).toBeUndefined()
    expect(parsePointer('/a~')).toBeUndefined()
    expect(formatPointer(['a/b', 'c~d', '~1'])).toBe('/a~1b/c~0d/~01')
  })

  it('resolves array indexes strictly', () => {
    expect(arrayIndex('0', 2, false)).toBe(0)
    expect(arrayIndex('2', 2, false)).toBeUndefined()
    expect(arrayIndex('2', 2, true)).toBe(2)
    expect(arrayIndex('-', 2, true)).toBe(2)
    expect(arrayIndex('-', 2, false)).toBeUndefined()
    expect(arrayIndex('01', 2, false)).toBeUndefined()
    expect(arrayIndex('1e0', 2, false)).toBeUndefined()
  })

  it('reads values, never from the prototype', () => {
    const doc = { a: [{ b: 1 }], c: null }
    expect(valueAt(doc, ['a', '0', 'b'])).toBe(1)
    expect(valueAt(doc, ['c'])).toBeNull()
    expect(valueAt(doc, ['a', '1'])).toBeUndefined()
    expect(valueAt(doc, ['constructor'])).toBeUndefined()
    expect(valueAt(doc, ['c', 'x'])).toBeUndefined()
  })
})
