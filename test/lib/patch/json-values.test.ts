/**
 * Tests for the JSON helpers: object guard, canonical serialization, deep equality, copies and
 * own-member access that never reaches Object.prototype.
 */
import { describe, expect, it } from 'vitest'
import type { JsonObject } from '../../../lib/kube/types.ts'
import {
  canonicalJson,
  cloneJson,
  deepEqual,
  isJsonObject,
  isPrimitive,
  ownMember,
  setMember,
} from '../../../lib/patch/json-values.ts'

describe('json values', () => {
  it('recognizes objects, not arrays or null', () => {
    expect([{}, { a: 1 }].map(isJsonObject)).toEqual([true, true])
    expect([[], null, 'x', 1, true].map(isJsonObject)).toEqual([false, false, false, false, false])
    expect([null, 'x', 1, false].map(isPrimitive)).toEqual([true, true, true, true])
    expect([[], {}].map(isPrimitive)).toEqual([false, false])
  })

  it('serializes canonically with sorted keys', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 1, c: 2 }], u: undefined })).toBe(
      '{"a":[{"c":2,"d":1}],"b":1}'
    )
    expect(canonicalJson('x')).toBe('"x"')
    expect(canonicalJson(undefined)).toBe('null')
  })

  it.each([
    [{ a: [1, { b: null }] }, { a: [1, { b: null }] }, true],
    [{ a: 1, b: 2 }, { b: 2, a: 1 }, true],
    [[1, 2], [2, 1], false],
    [{ a: 1 }, { a: 1, b: 1 }, false],
    [{ a: undefined }, { b: undefined }, false],
    [null, {}, false],
    [1, '1', false],
  ])('deepEqual(%j, %j) = %s', (a, b, want) => {
    expect(deepEqual(a, b)).toBe(want)
  })

  it('copies deeply', () => {
    const v = { a: [{ b: 1 }] }
    const c = cloneJson(v)
    c.a[0]!.b = 2
    expect(v.a[0]?.b).toBe(1)
  })

  it('reads and writes own members only, __proto__ included', () => {
    const o: JsonObject = {}
    expect(ownMember(o, 'constructor')).toBeUndefined()
    setMember(o, '__proto__', { x: 1 })
    expect(Object.keys(o)).toEqual(['__proto__'])
    expect(ownMember(o, '__proto__')).toEqual({ x: 1 })
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype)
  })
})
