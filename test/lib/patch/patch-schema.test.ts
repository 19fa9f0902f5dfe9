/**
 * Tests for the merge-key schema helpers: field lookup (own members only), list keys, item keys
 * with defaults and item identities.
 */
import { describe, expect, it } from 'vitest'
import {
  fieldSchema,
  fields,
  itemIdentity,
  itemKey,
  keyedList,
  listKeys,
  SET_LIST,
} from '../../../lib/patch/patch-schema.ts'

const ports = keyedList('containerPort', undefined, {
  keys: ['protocol', 'containerPort'],
  keyDefaults: { protocol: 'TCP' },
})

describe('patch schema', () => {
  it('looks up fields, never from the prototype', () => {
    const node = fields({ spec: SET_LIST })
    expect(fieldSchema(node, 'spec')).toBe(SET_LIST)
    expect(fieldSchema(node, 'toString')).toBeUndefined()
    expect(fieldSchema(undefined, 'spec')).toBeUndefined()
  })

  it('knows the keys of a list', () => {
    expect(listKeys(keyedList('name').list ?? {})).toEqual(['name'])
    expect(listKeys(ports.list ?? {})).toEqual(['protocol', 'containerPort'])
    expect(listKeys(SET_LIST.list ?? {})).toEqual([])
  })

  it('builds item keys sorted, with defaults, or undefined', () => {
    expect(itemKey({ containerPort: 80 }, ports.list ?? {})).toEqual({
      containerPort: 80,
      protocol: 'TCP',
    })
    expect(JSON.stringify(itemKey({ protocol: 'UDP', containerPort: 53 }, ports.list ?? {}))).toBe(
      '{"containerPort":53,"protocol":"UDP"}'
    )
    expect(itemKey({ name: 'x' }, ports.list ?? {})).toBeUndefined()
    expect(itemKey('x', ports.list ?? {})).toBeUndefined()
    expect(itemKey({ name: { nested: 1 } }, keyedList('name').list ?? {})).toBeUndefined()
  })

  it('identifies items of keyed and set lists', () => {
    expect(itemIdentity({ name: 'a', v: 1 }, keyedList('name').list ?? {})).toBe('{"name":"a"}')
    expect(itemIdentity('a', SET_LIST.list ?? {})).toBe('"a"')
    expect(itemIdentity({}, SET_LIST.list ?? {})).toBeUndefined()
  })
})
