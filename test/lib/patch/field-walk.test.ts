/**
 * Tests for walking objects into tracked field paths: apply vs compare mode, keyed/set/atomic
 * lists, malformed lists treated as atomic, untracked metadata, and diffs between two walks.
 */
import { describe, expect, it } from 'vitest'
import type { JsonObject } from '../../../lib/kube/types.ts'
import { fieldSetOf } from '../../../lib/patch/field-set.ts'
import {
  changedFields,
  compareFields,
  listEntries,
  objectFields,
} from '../../../lib/patch/field-walk.ts'
import { fields, keyedList, type NodeSchema, SET_LIST } from '../../../lib/patch/patch-schema.ts'

const schema: NodeSchema = fields({
  metadata: fields({ finalizers: SET_LIST }),
  spec: fields({ items: keyedList('name'), set: SET_LIST }),
})

const obj: JsonObject = {
  apiVersion: 'v1',
  kind: 'X',
  metadata: { name: 'n', uid: 'u', resourceVersion: '1', labels: { a: '1' }, finalizers: ['f'] },
  spec: { items: [{ name: 'i', v: 1 }], set: ['x'], atomic: [1, 2], empty: {}, s: 'str' },
}

const keys = (m: ReadonlyMap<string, string>) => new Set(m.keys())

describe('objectFields', () => {
  it('apply mode: leaves, list items and empty objects only', () => {
    expect(keys(objectFields(obj, schema, 'apply'))).toEqual(
      fieldSetOf([
        ['f:metadata', 'f:labels', 'f:a'],
        ['f:metadata', 'f:finalizers', 'v:"f"'],
        ['f:spec', 'f:items', 'k:{"name":"i"}'],
        ['f:spec', 'f:items', 'k:{"name":"i"}', 'f:name'],
        ['f:spec', 'f:items', 'k:{"name":"i"}', 'f:v'],
        ['f:spec', 'f:set', 'v:"x"'],
        ['f:spec', 'f:atomic'],
        ['f:spec', 'f:empty'],
        ['f:spec', 'f:s'],
      ])
    )
  })

  it('compare mode: objects are members too, metadata itself is not', () => {
    const got = keys(objectFields(obj, schema, 'compare'))
    expect(got.has(JSON.stringify(['f:spec']))).toBe(true)
    expect(got.has(JSON.stringify(['f:metadata', 'f:labels']))).toBe(true)
    expect(got.has(JSON.stringify(['f:metadata']))).toBe(false)
    expect(got.has(JSON.stringify(['f:metadata', 'f:name']))).toBe(false)
  })

  it('treats keyed lists with missing or duplicate keys as atomic', () => {
    const bad = { spec: { items: [{ name: 'a' }, { name: 'a' }] } }
    expect(keys(objectFields(bad, schema, 'apply'))).toEqual(fieldSetOf([['f:spec', 'f:items']]))
    const noKey = { spec: { items: [{ v: 1 }] } }
    expect(keys(objectFields(noKey, schema, 'apply'))).toEqual(fieldSetOf([['f:spec', 'f:items']]))
  })

  it('lists entries with defaults filled into keys', () => {
    const ports = keyedList('containerPort', undefined, {
      keys: ['containerPort', 'protocol'],
      keyDefaults: { protocol: 'TCP' },
    })
    expect(
      listEntries([{ containerPort: 80 }, { containerPort: 80, protocol: 'UDP' }], ports.list ?? {})
    ).toEqual([
      { element: 'k:{"containerPort":80,"protocol":"TCP"}', item: { containerPort: 80 } },
      {
        element: 'k:{"containerPort":80,"protocol":"UDP"}',
        item: { containerPort: 80, protocol: 'UDP' },
      },
    ])
    expect(listEntries([{ a: 1 }], SET_LIST.list ?? {})).toBeUndefined()
  })
})

describe('compareFields', () => {
  it('reports added, modified and removed paths', () => {
    const before = objectFields({ spec: { a: 1, b: 2, items: [{ name: 'x' }] } }, schema, 'compare')
    const after = objectFields({ spec: { a: 1, b: 3, c: 4 } }, schema, 'compare')
    const diff = compareFields(before, after)
    expect(diff.added).toEqual(fieldSetOf([['f:spec', 'f:c']]))
    expect(diff.modified).toEqual(fieldSetOf([['f:spec', 'f:b']]))
    expect(diff.removed).toEqual(
      fieldSetOf([
        ['f:spec', 'f:items', 'k:{"name":"x"}'],
        ['f:spec', 'f:items', 'k:{"name":"x"}', 'f:name'],
      ])
    )
    expect(changedFields(diff)).toEqual(
      fieldSetOf([
        ['f:spec', 'f:c'],
        ['f:spec', 'f:b'],
      ])
    )
  })
})
