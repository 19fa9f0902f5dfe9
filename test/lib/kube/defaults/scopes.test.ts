/**
 * The defaults engine: filling runs a node's rules in order and then its inner scopes; stripping
 * runs inner scopes first and rules in reverse, removing a value only when filling gives it back.
 */
import { describe, expect, it } from 'vitest'
import {
  constant,
  emptyObject,
  fillScopes,
  items,
  member,
  type Node,
  type Scope,
  stripScopes,
} from '../../../../lib/kube/defaults/scopes.ts'

const SCOPES: Scope[] = [
  {
    nodes: member('spec'),
    rules: [
      { key: 'size', value: (n) => (n.count === undefined ? 1 : undefined) },
      constant('count', 1),
      emptyObject('box'),
      { key: 'retries', value: () => 3, zeroUnset: true },
    ],
    inner: [
      { nodes: member('box'), rules: [constant('lid', 'on')] },
      { nodes: items('parts'), rules: [{ key: 'copy', value: (p) => p.name }] },
    ],
  },
]

const fill = (o: Node) => {
  const c = structuredClone(o)
  fillScopes(c, SCOPES)
  return c
}
const strip = (o: Node) => {
  const c = structuredClone(o)
  stripScopes(c, SCOPES)
  return c
}

describe('fillScopes', () => {
  it('fills unset members in rule order, then inner nodes; 0 is unset where a rule says so', () => {
    expect(fill({ spec: { retries: 0, parts: [{ name: 'a' }, 'not a node'] } })).toEqual({
      spec: {
        size: 1,
        count: 1,
        box: { lid: 'on' },
        retries: 3,
        parts: [{ name: 'a', copy: 'a' }, 'not a node'],
      },
    })
    expect(fill({ spec: { count: 2, box: { lid: 'off' }, size: '' } })).toEqual({
      spec: { count: 2, box: { lid: 'off' }, retries: 3, size: '' },
    })
    expect(fill({ other: 1 })).toEqual({ other: 1 })
  })
})

describe('stripScopes', () => {
  it('removes what filling puts back, emptied objects included', () => {
    expect(strip(fill({ spec: { parts: [{ name: 'a' }] } }))).toEqual({
      spec: { parts: [{ name: 'a' }] },
    })
  })

  it('keeps chosen values, and a default another rule needs to stay set', () => {
    // without count the size rule would fill size 1: count 1 stays, though it is the default
    expect(strip(fill({ spec: { count: 1 } }))).toEqual({ spec: { count: 1 } })
    expect(strip({ spec: { box: { lid: 'off' }, retries: 0 } })).toEqual({
      spec: { box: { lid: 'off' }, retries: 0 },
    })
  })
})
