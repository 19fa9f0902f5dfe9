/**
 * Tests for JSON merge patch (RFC 7386): the RFC's own example table, kube-shaped patches
 * (kubectl label/scale), immutability of the inputs, and createMergePatch round trips.
 */
import { describe, expect, it } from 'vitest'
import type { JsonValue } from '../../../lib/kube/types.ts'
import { applyMergePatch, createMergePatch } from '../../../lib/patch/merge-patch.ts'

type Case = { name: string; target: JsonValue; patch: JsonValue; want: JsonValue }

const rfcCases: Case[] = [
  { name: 'replace member', target: { a: 'b' }, patch: { a: 'c' }, want: { a: 'c' } },
  { name: 'add member', target: { a: 'b' }, patch: { b: 'c' }, want: { a: 'b', b: 'c' } },
  { name: 'null deletes', target: { a: 'b' }, patch: { a: null }, want: {} },
  { name: 'delete one of two', target: { a: 'b', b: 'c' }, patch: { a: null }, want: { b: 'c' } },
  { name: 'array replaces', target: { a: ['b'] }, patch: { a: 'c' }, want: { a: 'c' } },
  { name: 'scalar to array', target: { a: 'c' }, patch: { a: ['b'] }, want: { a: ['b'] } },
  {
    name: 'nested merge and delete',
    target: { a: { b: 'c' } },
    patch: { a: { b: 'd', c: null } },
    want: { a: { b: 'd' } },
  },
  {
    name: 'arrays are not merged',
    target: { a: [{ b: 'c' }] },
    patch: { a: [1] },
    want: { a: [1] },
  },
  { name: 'array target', target: ['a', 'b'], patch: ['c', 'd'], want: ['c', 'd'] },
  { name: 'object patch over array', target: { a: 'b' }, patch: ['c'], want: ['c'] },
  { name: 'null patch', target: { a: 'foo' }, patch: null, want: null },
  { name: 'string patch', target: { a: 'foo' }, patch: 'bar', want: 'bar' },
  { name: 'null member in patch', target: { e: null }, patch: { a: 1 }, want: { e: null, a: 1 } },
  {
    name: 'object over array target',
    target: [1, 2],
    patch: { a: 'b', c: null },
    want: { a: 'b' },
  },
  {
    name: 'nulls inside new objects are dropped',
    target: {},
    patch: { a: { bb: { ccc: null } } },
    want: { a: { bb: {} } },
  },
]

describe('applyMergePatch', () => {
  it.each(rfcCases)('RFC 7386: $name', ({ target, patch, want }) => {
    expect(applyMergePatch(target, patch)).toEqual(want)
  })

  it('applies the patches kubectl label and kubectl scale send', () => {
    const live: JsonValue = {
      metadata: { name: 'web', labels: { app: 'web', tier: 'fe' } },
      spec: { replicas: 1, template: { spec: { containers: [{ name: 'app' }] } } },
    }
    const labelled = applyMergePatch(live, { metadata: { labels: { tier: null, env: 'prod' } } })
    expect(labelled).toEqual({
      metadata: { name: 'web', labels: { app: 'web', env: 'prod' } },
      spec: { replicas: 1, template: { spec: { containers: [{ name: 'app' }] } } },
    })
    expect(applyMergePatch(live, { spec: { replicas: 3 } })).toMatchObject({
      spec: { replicas: 3 },
    })
  })

  it('treats a missing target as empty', () => {
    expect(applyMergePatch(undefined, { a: { b: 1 } })).toEqual({ a: { b: 1 } })
  })

  it('mutates neither input and shares nothing with them', () => {
    const target = { a: { b: 1 }, keep: { deep: [1] } }
    const patch = { a: { c: 2 }, n: { m: 1 } }
    const out = applyMergePatch(target, patch) as { keep: { deep: number[] }; n: { m: number } }
    expect(target).toEqual({ a: { b: 1 }, keep: { deep: [1] } })
    expect(patch).toEqual({ a: { c: 2 }, n: { m: 1 } })
    out.keep.deep.push(2)
    out.n.m = 5
    expect(target.keep.deep).toEqual([1])
    expect(patch.n.m).toBe(1)
  })

  it('handles keys that collide with Object.prototype as ordinary members', () => {
    const patch = JSON.parse('{"__proto__":{"x":1},"constructor":"c","toString":null}') as JsonValue
    const out = applyMergePatch({ toString: 'gone' }, patch) as Record<string, unknown>
    expect(Object.keys(out).sort()).toEqual(['__proto__', 'constructor'])
    expect(out.constructor).toBe('c')
    expect(JSON.stringify(out)).toBe('{"__proto__":{"x":1},"constructor":"c"}')
    expect(({} as Record<string, unknown>).x).toBeUndefined()
  })
})

describe('createMergePatch', () => {
  const cases: { name: string; from: JsonValue; to: JsonValue; want: JsonValue }[] = [
    { name: 'no change', from: { a: 1, b: { c: 2 } }, to: { a: 1, b: { c: 2 } }, want: {} },
    { name: 'changed scalar', from: { a: 1 }, to: { a: 2 }, want: { a: 2 } },
    { name: 'removed member', from: { a: 1, b: 2 }, to: { a: 1 }, want: { b: null } },
    { name: 'added member', from: {}, to: { a: { b: 1 } }, want: { a: { b: 1 } } },
    {
      name: 'nested change',
      from: { m: { labels: { a: '1', b: '2' } } },
      to: { m: { labels: { a: '1', c: '3' } } },
      want: { m: { labels: { b: null, c: '3' } } },
    },
    { name: 'array changed', from: { l: [1, 2] }, to: { l: [2, 1] }, want: { l: [2, 1] } },
    { name: 'array unchanged', from: { l: [1, { x: 1 }] }, to: { l: [1, { x: 1 }] }, want: {} },
    { name: 'object to scalar', from: { a: { b: 1 } }, to: { a: 'x' }, want: { a: 'x' } },
    { name: 'non-object to', from: { a: 1 }, to: [1], want: [1] },
  ]

  it.each(cases)('$name', ({ from, to, want }) => {
    const patch = createMergePatch(from, to)
    expect(patch).toEqual(want)
    expect(applyMergePatch(from, patch)).toEqual(to)
  })
})
