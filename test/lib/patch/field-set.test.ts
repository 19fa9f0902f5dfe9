/**
 * Tests for field sets and their FieldsV1 encoding: leaves, "." members, sorting, round trips,
 * malformed managedFields and the set operations.
 */
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../lib/errors.ts'
import {
  difference,
  fieldSetFromFieldsV1,
  fieldSetOf,
  fieldSetToFieldsV1,
  intersection,
  sameSet,
  union,
} from '../../../lib/patch/field-set.ts'

const fieldsV1 = {
  'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
  'f:spec': {
    'f:containers': { 'k:{"name":"app"}': { '.': {}, 'f:image': {}, 'f:name': {} } },
    'f:finalizers': { 'v:"a"': {} },
  },
}

describe('FieldsV1', () => {
  it('decodes members, "." entries included', () => {
    const set = fieldSetFromFieldsV1(fieldsV1)
    expect(set).toEqual(
      fieldSetOf([
        ['f:metadata', 'f:labels'],
        ['f:metadata', 'f:labels', 'f:app'],
        ['f:spec', 'f:containers', 'k:{"name":"app"}'],
        ['f:spec', 'f:containers', 'k:{"name":"app"}', 'f:image'],
        ['f:spec', 'f:containers', 'k:{"name":"app"}', 'f:name'],
        ['f:spec', 'f:finalizers', 'v:"a"'],
      ])
    )
  })

  it('encodes back to the same shape, sorted', () => {
    const encoded = fieldSetToFieldsV1(fieldSetFromFieldsV1(fieldsV1))
    expect(encoded).toEqual(fieldsV1)
    expect(JSON.stringify(encoded)).toBe(
      '{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"app\\"}":{".":{},"f:image":{},"f:name":{}}},"f:finalizers":{"v:\\"a\\"":{}}}}'
    )
    expect(fieldSetToFieldsV1(new Set())).toEqual({})
    expect(fieldSetFromFieldsV1(undefined).size).toBe(0)
  })

  it.each([
    [{ 'f:a': 1 }, 'is not an object'],
    [{ 'x:a': {} }, 'unknown field element "x:a"'],
    [[], 'is not an object'],
  ])('rejects malformed %j with 400', (bad, message) => {
    try {
      fieldSetFromFieldsV1(bad)
      expect.unreachable()
    } catch (e) {
      expect(e).toBeInstanceOf(ApiError)
      expect((e as ApiError).code).toBe(400)
      expect((e as ApiError).message).toContain(message)
    }
  })
})

describe('set operations', () => {
  const a = fieldSetOf([['f:a'], ['f:b']])
  const b = fieldSetOf([['f:b'], ['f:c']])
  it('unions, subtracts and intersects', () => {
    expect(union(a, b)).toEqual(fieldSetOf([['f:a'], ['f:b'], ['f:c']]))
    expect(difference(a, b)).toEqual(fieldSetOf([['f:a']]))
    expect(intersection(a, b)).toEqual(fieldSetOf([['f:b']]))
    expect(sameSet(a, fieldSetOf([['f:b'], ['f:a']]))).toBe(true)
    expect(sameSet(a, b)).toBe(false)
  })
})
