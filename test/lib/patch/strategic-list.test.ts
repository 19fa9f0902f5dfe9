/**
 * Tests for strategic-merge list merging on its own: atomic replacement, set union, keyed merge
 * with delete and replace directives, and `$deleteFromPrimitiveList`.
 */
import { describe, expect, it } from 'vitest'
import type { JsonObject, JsonValue } from '../../../lib/kube/types.ts'
import { keyedList, SET_LIST } from '../../../lib/patch/patch-schema.ts'
import {
  deleteFromList,
  type ListMergeContext,
  listIdentity,
  mergeList,
} from '../../../lib/patch/strategic-list.ts'

/** A shallow object merge standing in for the map merge of strategic-merge.ts. */
const shallow = (live: JsonObject, patch: JsonObject) => ({ ...live, ...patch })

const ctx = (list: ListMergeContext['list'], order?: JsonValue[]): ListMergeContext => ({
  list,
  order,
  path: '.l',
  mergeObject: shallow,
})

describe('mergeList', () => {
  it('replaces lists without a schema, copying the patch', () => {
    const patch = [{ a: 1 }]
    const out = mergeList([{ b: 1 }], patch, ctx(undefined))
    expect(out).toEqual([{ a: 1 }])
    expect(out[0]).not.toBe(patch[0])
  })

  it('unions set lists', () => {
    expect(mergeList(['a', 'b'], ['b', 'c'], ctx(SET_LIST.list))).toEqual(['a', 'b', 'c'])
  })

  it('merges keyed lists, deleting and adding items', () => {
    const live: JsonValue[] = [{ name: 'a', v: 1 }, { name: 'b' }]
    const patch: JsonValue[] = [{ name: 'a', v: 2 }, { name: 'b', $patch: 'delete' }, { name: 'c' }]
    expect(mergeList(live, patch, ctx(keyedList('name').list))).toEqual([
      { name: 'a', v: 2 },
      { name: 'c' },
    ])
  })

  it('matches merge keys by value: the first duplicate merges, a delete removes them all', () => {
    const list = keyedList('port').list
    const live: JsonValue[] = [
      { port: { n: 80, p: 'TCP' }, v: 1 },
      { port: { n: 80, p: 'TCP' }, v: 2 },
      { port: 'x' },
      'not-an-object',
      { port: 443 },
    ]
    // Key order inside an object value does not matter; the item added by the patch is found
    // by a later patch item.
    const patch: JsonValue[] = [
      { port: { p: 'TCP', n: 80 }, w: 1 },
      { port: 9 },
      { port: 9, w: 2 },
      { port: 'x', $patch: 'delete' },
    ]
    expect(mergeList(live, patch, ctx(list))).toEqual([
      { port: { n: 80, p: 'TCP' }, v: 1, w: 1 },
      { port: { n: 80, p: 'TCP' }, v: 2 },
      { port: 9, w: 2 },
      { port: 443 },
      'not-an-object',
    ])
    const gone = mergeList(live, [{ port: { p: 'TCP', n: 80 }, $patch: 'delete' }], ctx(list))
    expect(gone).toEqual([{ port: 'x' }, { port: 443 }, 'not-an-object'])
  })

  it('removes every item of a key whose merge yields nothing', () => {
    const list = keyedList('name').list
    const live: JsonValue[] = [{ name: 'a', v: 1 }, { name: 'b' }, { name: 'a', v: 2 }]
    const dropA: ListMergeContext = {
      ...ctx(list),
      mergeObject: (l, p) => (p.name === 'a' ? undefined : { ...l, ...p }),
    }
    expect(mergeList(live, [{ name: 'a' }], dropA)).toEqual([{ name: 'b' }])
  })

  it('merges 10,000 keyed items into 10,000 live ones item by item', () => {
    const list = keyedList('name').list
    const live: JsonValue[] = Array.from({ length: 10_000 }, (_, i) => ({ name: `c${i}`, v: 0 }))
    const patch: JsonValue[] = Array.from({ length: 10_000 }, (_, i) => ({
      name: `c${9_999 - i}`,
      v: 1,
    }))
    const out = mergeList(live, patch, ctx(list))
    expect(out).toHaveLength(10_000)
    expect(out[0]).toEqual({ name: 'c9999', v: 1 })
    expect(out.every((x) => (x as JsonObject).v === 1)).toBe(true)
  })

  it('honours $setElementOrder', () => {
    const live = [{ name: 'a' }, { name: 'b' }]
    const out = mergeList(
      live,
      [{ name: 'a', v: 1 }],
      ctx(keyedList('name').list, [{ name: 'b' }, { name: 'a' }])
    )
    expect(out).toEqual([{ name: 'b' }, { name: 'a', v: 1 }])
  })

  it('replaces the list when an item says $patch: replace', () => {
    const out = mergeList(
      [{ name: 'a' }],
      [{ $patch: 'replace' }, { name: 'z' }],
      ctx(keyedList('name').list)
    )
    expect(out).toEqual([{ name: 'z' }])
  })

  it('deletes primitive values and identifies items', () => {
    expect(deleteFromList(['a', 'b', 'a', 'c'], ['a', 'c'])).toEqual(['b'])
    expect(listIdentity(keyedList('name').list ?? {})({ name: 'x' })).toBe('"x"')
    expect(listIdentity(keyedList('name').list ?? {})({})).toBeUndefined()
    expect(listIdentity(SET_LIST.list ?? {})(1)).toBe('1')
  })
})
