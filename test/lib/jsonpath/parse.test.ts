/**
 * The Customizer JSONPath parser: every selector form of the subset (dot names, dot indexes,
 * wildcards, bracketed quoted names with escapes, indexes, slices and lists, descendant segments),
 * definiteness, and the errors with their positions.
 */
import { describe, expect, it } from 'vitest'
import { isDefinite, JsonPathError, parseJsonPath } from '../../../lib/jsonpath/parse.ts'

const segs = (text: string) => parseJsonPath(text).segments

describe('parseJsonPath', () => {
  it.each([
    ['$', []],
    ['$.spec', [{ descendant: false, selectors: [{ kind: 'name', name: 'spec' }] }]],
    ['$.a_b-c', [{ descendant: false, selectors: [{ kind: 'name', name: 'a_b-c' }] }]],
    ['$.0', [{ descendant: false, selectors: [{ kind: 'index', index: 0 }] }]],
    ['$.12', [{ descendant: false, selectors: [{ kind: 'index', index: 12 }] }]],
    ['$.*', [{ descendant: false, selectors: [{ kind: 'wildcard' }] }]],
    ['$[*]', [{ descendant: false, selectors: [{ kind: 'wildcard' }] }]],
    ['$[3]', [{ descendant: false, selectors: [{ kind: 'index', index: 3 }] }]],
    ['$[-1]', [{ descendant: false, selectors: [{ kind: 'index', index: -1 }] }]],
    [
      "$['app.kubernetes.io/name']",
      [{ descendant: false, selectors: [{ kind: 'name', name: 'app.kubernetes.io/name' }] }],
    ],
    ['$["a\\"b"]', [{ descendant: false, selectors: [{ kind: 'name', name: 'a"b' }] }]],
    [
      "$['it\\'s\\u0041\\n']",
      [{ descendant: false, selectors: [{ kind: 'name', name: "it'sA\n" }] }],
    ],
    ['$..image', [{ descendant: true, selectors: [{ kind: 'name', name: 'image' }] }]],
    ['$..*', [{ descendant: true, selectors: [{ kind: 'wildcard' }] }]],
    ['$..[0]', [{ descendant: true, selectors: [{ kind: 'index', index: 0 }] }]],
  ])('parses %s', (text, want) => {
    expect(segs(text)).toEqual(want)
  })

  it('parses slices in every form', () => {
    const slice = (text: string) => segs(text)[0]?.selectors[0]
    expect(slice('$[1:3]')).toEqual({ kind: 'slice', start: 1, end: 3, step: undefined })
    expect(slice('$[:2]')).toEqual({ kind: 'slice', start: undefined, end: 2, step: undefined })
    expect(slice('$[1:]')).toEqual({ kind: 'slice', start: 1, end: undefined, step: undefined })
    expect(slice('$[::2]')).toEqual({ kind: 'slice', start: undefined, end: undefined, step: 2 })
    expect(slice('$[-1::-1]')).toEqual({ kind: 'slice', start: -1, end: undefined, step: -1 })
    expect(slice('$[ 0 : 4 : 2 ]')).toEqual({ kind: 'slice', start: 0, end: 4, step: 2 })
  })

  it('parses lists of selectors with blank space', () => {
    expect(segs("$[ 0, 'a' ,*, 1:2 ]")[0]?.selectors).toEqual([
      { kind: 'index', index: 0 },
      { kind: 'name', name: 'a' },
      { kind: 'wildcard' },
      { kind: 'slice', start: 1, end: 2, step: undefined },
    ])
  })

  it('parses the reference example', () => {
    const p = parseJsonPath('$.spec.template.spec.containers.0.env.0.value')
    expect(p.segments.map((s) => s.selectors[0])).toEqual([
      { kind: 'name', name: 'spec' },
      { kind: 'name', name: 'template' },
      { kind: 'name', name: 'spec' },
      { kind: 'name', name: 'containers' },
      { kind: 'index', index: 0 },
      { kind: 'name', name: 'env' },
      { kind: 'index', index: 0 },
      { kind: 'name', name: 'value' },
    ])
    expect(isDefinite(p)).toBe(true)
  })

  it.each([
    ['$.a.b', true],
    ["$['a'][0]", true],
    ['$', true],
    ['$.a.*', false],
    ['$.a[0,1]', false],
    ['$.a[0:1]', false],
    ['$..a', false],
  ])('knows whether %s is definite', (text, want) => {
    expect(isDefinite(parseJsonPath(text))).toBe(want)
  })

  it.each([
    ['', 0, 'must start with "$"'],
    ['spec.x', 0, 'must start with "$"'],
    ['$.', 2, 'expected a member name'],
    ['$.-a', 2, 'expected a member name'],
    ['$.01', 2, 'invalid index'],
    ['$a', 1, 'unexpected "a"'],
    ['$.a b', 3, 'unexpected " "'],
    ['$[]', 2, 'empty brackets'],
    ['$[0', 3, 'missing "]"'],
    ['$[0 1]', 4, 'expected "," or "]"'],
    ["$['a]", 2, 'unterminated string'],
    ["$['\\x']", 3, 'invalid escape'],
    ['$[?(@.a)]', 2, 'filter selectors are not supported'],
    ['$[a]', 2, 'expected a quoted name, an index, a slice or "*"'],
    ['$...a', 3, 'expected a member name'],
    ['$[99999999999999999999]', 2, 'integer out of range'],
  ])('refuses %j at %i: %s', (text, position, what) => {
    let err: unknown
    try {
      parseJsonPath(text)
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(JsonPathError)
    expect((err as JsonPathError).position).toBe(position)
    expect((err as JsonPathError).message).toContain(what)
    expect((err as JsonPathError).message).toContain(JSON.stringify(text))
  })
})
