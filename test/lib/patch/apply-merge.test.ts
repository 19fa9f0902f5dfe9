/**
 * Tests for the value side of server-side apply: null dropping, configuration validation,
 * merging (objects, keyed and set lists with their order, atomic replacement) and field removal
 * (kept descendants, key fields, emptied objects).
 */
import { describe, expect, it } from 'vitest'
import type { ApiError } from '../../../lib/errors.ts'
import type { JsonObject, JsonValue } from '../../../lib/kube/types.ts'
import {
  dropNulls,
  mergeApplied,
  removeFields,
  validateApplied,
} from '../../../lib/patch/apply-merge.ts'
import { fieldSetOf } from '../../../lib/patch/field-set.ts'
import { fields, keyedList, type NodeSchema, SET_LIST } from '../../../lib/patch/patch-schema.ts'

const schema: NodeSchema = fields({ spec: fields({ items: keyedList('name'), set: SET_LIST }) })
const item = (name: string, more: JsonObject = {}) => ({ name, ...more })

describe('dropNulls and validateApplied', () => {
  it('drops null members at every depth', () => {
    expect(dropNulls({ a: null, b: { c: null, d: 1 }, l: [{ e: null }, null] })).toEqual({
      b: { d: 1 },
      l: [{}, null],
    })
  })

  it.each<[JsonValue, string]>([
    [
      { spec: { items: [{ v: 1 }] } },
      '.spec.items: every item of this associative list needs the key fields "name"',
    ],
    [{ spec: { items: [item('a'), item('a')] } }, 'no two items may have the same key'],
    [{ spec: { set: ['a', 'a'] } }, '.spec.set: a set list must hold distinct primitive values'],
  ])('rejects %j', (config, message) => {
    try {
      validateApplied(config, schema)
      expect.unreachable()
    } catch (e) {
      expect((e as ApiError).code).toBe(400)
      expect((e as ApiError).message).toContain(message)
    }
  })

  it('accepts well-formed configurations and atomic lists with anything in them', () => {
    expect(() =>
      validateApplied({ spec: { items: [item('a')], other: [{}, {}] } }, schema)
    ).not.toThrow()
  })
})

describe('mergeApplied', () => {
  it.each<[string, JsonValue, JsonValue, JsonValue]>([
    ['objects merge', { spec: { a: 1, b: 2 } }, { spec: { b: 3 } }, { spec: { a: 1, b: 3 } }],
    [
      'atomic lists are replaced',
      { spec: { l: [1, 2] } },
      { spec: { l: [3] } },
      { spec: { l: [3] } },
    ],
    [
      'keyed items merge, live-only items stay in place',
      { spec: { items: [item('a', { v: 1 }), item('x'), item('b')] } },
      { spec: { items: [item('a', { v: 2 }), item('c')] } },
      { spec: { items: [item('a', { v: 2 }), item('x'), item('b'), item('c')] } },
    ],
    [
      'applied order wins for shared items',
      { spec: { items: [item('a'), item('b'), item('c')] } },
      { spec: { items: [item('c'), item('a')] } },
      { spec: { items: [item('c'), item('a'), item('b')] } },
    ],
    [
      'set lists union',
      { spec: { set: ['a', 'b'] } },
      { spec: { set: ['c', 'a'] } },
      { spec: { set: ['c', 'a', 'b'] } },
    ],
    ['type change replaces', { spec: 'x' }, { spec: { a: 1 } }, { spec: { a: 1 } }],
  ])('%s', (_name, live, applied, want) => {
    expect(mergeApplied(live, applied, schema)).toEqual(want)
  })

  it('shares nothing with its inputs', () => {
    const live = { spec: { keep: { deep: 1 } } }
    const out = mergeApplied(live, { spec: { x: 1 } }, schema) as {
      spec: { keep: { deep: number } }
    }
    out.spec.keep.deep = 2
    expect(live.spec.keep.deep).toBe(1)
  })
})

describe('removeFields', () => {
  const path = (...p: string[]) => p
  it('removes leaves and emptied objects, not kept ones', () => {
    const obj: JsonObject = { spec: { a: { b: 1 }, c: { d: 1 } } }
    const keep = fieldSetOf([['f:spec', 'f:c']])
    removeFields(obj, schema, [path('f:spec', 'f:a', 'f:b'), path('f:spec', 'f:c', 'f:d')], keep)
    expect(obj).toEqual({ spec: { c: {} } })
  })

  it('removes a whole item unless something below it is kept, and never its key fields', () => {
    const obj: JsonObject = { spec: { items: [item('a', { v: 1, w: 2 }), item('b', { v: 1 })] } }
    const keep = fieldSetOf([['f:spec', 'f:items', 'k:{"name":"a"}', 'f:w']])
    removeFields(
      obj,
      schema,
      [
        path('f:spec', 'f:items', 'k:{"name":"a"}'),
        path('f:spec', 'f:items', 'k:{"name":"a"}', 'f:name'),
        path('f:spec', 'f:items', 'k:{"name":"a"}', 'f:v'),
        path('f:spec', 'f:items', 'k:{"name":"b"}'),
      ],
      keep
    )
    expect(obj).toEqual({ spec: { items: [item('a', { w: 2 })] } })
  })

  it('removes set values and ignores paths that are not there', () => {
    const obj: JsonObject = { spec: { set: ['a', 'b'] } }
    removeFields(
      obj,
      schema,
      [path('f:spec', 'f:set', 'v:"a"'), path('f:nope', 'f:x'), path('f:spec', 'f:set', 'v:"z"')],
      new Set()
    )
    expect(obj).toEqual({ spec: { set: ['b'] } })
  })
})
