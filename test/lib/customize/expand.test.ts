/**
 * Parameter expansion: `%(name)` from a Location's labels before its annotations, `%%` as an
 * escape, a lone `%` kept, undefined names and bad syntax collected (never silently kept), every
 * leaf string of nested maps and lists expanded, map keys and non-strings untouched, the input
 * unchanged.
 */
import { describe, expect, it } from 'vitest'
import {
  expandLeaves,
  expandString,
  locationParameters,
  type Parameters,
} from '../../../lib/customize/expand.ts'
import type { JsonValue } from '../../../lib/kube/types.ts'

const location = locationParameters({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'Location',
  metadata: {
    name: 'florin',
    labels: { env: 'prod', 'topology.kubernetes.io/zone': 'z1', both: 'from-label' },
    annotations: { owner: 'team-a', both: 'from-annotation', empty: '' },
  },
})

describe('expandString', () => {
  it.each([
    ['env is %(env)', 'env is prod'],
    ['%(env)-%(env)', 'prod-prod'],
    ['%(topology.kubernetes.io/zone)', 'z1'],
    ['%(owner)', 'team-a'],
    ['%(both)', 'from-label'],
    ['[%(empty)]', '[]'],
    ['100%%', '100%'],
    ['%%(env)', '%(env)'],
    ['%%%(env)', '%prod'],
    ['50% off', '50% off'],
    ['ends with %', 'ends with %'],
    ['no parameters', 'no parameters'],
    ['', ''],
  ])('%j -> %j', (text, want) => {
    const out = expandString(text, location)
    expect(out.value).toBe(want)
    expect(out.problems).toEqual({ undefinedNames: [], syntax: [] })
  })

  it('collects undefined names, sorted and once each', () => {
    const out = expandString('%(zz) %(env) %(aa) %(zz)', location)
    expect(out.problems.undefinedNames).toEqual(['aa', 'zz'])
    expect(out.problems.syntax).toEqual([])
  })

  it('reports an empty name and an unterminated reference', () => {
    expect(expandString('a %() b', location).problems.syntax).toEqual([
      'empty parameter name "%()" in "a %() b"',
    ])
    const open = expandString('x %(env', location)
    expect(open.problems.syntax).toEqual(['unterminated "%(" in "x %(env"'])
    expect(open.value).toBe('x %(env')
  })

  it('asks the parameters only for names that are used', () => {
    const asked: string[] = []
    const params: Parameters = (n) => {
      asked.push(n)
      return 'v'
    }
    expandString('%% %(a) % (b) %(c)', params)
    expect(asked).toEqual(['a', 'c'])
  })
})

describe('expandLeaves', () => {
  it('expands every leaf string at any depth, not keys or other values', () => {
    const input: JsonValue = {
      '%(env)': 'key stays, value %(env)',
      list: ['%(owner)', 3, true, null, { deep: ['%(topology.kubernetes.io/zone)'] }],
      n: 1,
    }
    const before = structuredClone(input)
    const out = expandLeaves(input, location)
    expect(out.value).toEqual({
      '%(env)': 'key stays, value prod',
      list: ['team-a', 3, true, null, { deep: ['z1'] }],
      n: 1,
    })
    expect(input).toEqual(before)
    expect(out.problems).toEqual({ undefinedNames: [], syntax: [] })
  })

  it('collects the problems of all leaves', () => {
    const out = expandLeaves({ a: '%(x)', b: ['%(y)', '%(x)', '%(env'] }, location)
    expect(out.problems.undefinedNames).toEqual(['x', 'y'])
    expect(out.problems.syntax).toHaveLength(1)
  })

  it('keeps a __proto__ key an own member', () => {
    const input = JSON.parse('{"__proto__": {"x": "%(env)"}}') as JsonValue
    const out = expandLeaves(input, location).value as Record<string, unknown>
    expect(Object.hasOwn(out, '__proto__')).toBe(true)
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ x: 'prod' })
  })
})
