/**
 * Setting values by JSONPath: definite paths create missing map members and fail clearly where
 * they cannot go; other paths set every existing place they select (wildcards, lists, slices,
 * negative indexes, descendants) and may select nothing; each place gets its own copy; the root
 * cannot be replaced.
 */
import { describe, expect, it } from 'vitest'
import { parseJsonPath } from '../../../lib/jsonpath/parse.ts'
import { ReplacementError, setAtPath } from '../../../lib/jsonpath/set.ts'
import type { JsonObject, JsonValue } from '../../../lib/kube/types.ts'

const deployment = (): JsonObject => ({
  spec: {
    template: {
      spec: {
        containers: [
          { name: 'a', image: 'a:1', env: [{ name: 'E', value: 'x' }] },
          { name: 'b', image: 'b:1' },
        ],
      },
    },
  },
})

function set(obj: JsonObject, path: string, value: JsonValue): number {
  return setAtPath(obj, parseJsonPath(path), value)
}

const containers = (o: JsonObject) => (o.spec as any).template.spec.containers as any[]

describe('setAtPath', () => {
  it('sets a definite path through names and dot indexes', () => {
    const o = deployment()
    expect(set(o, '$.spec.template.spec.containers.0.env.0.value', 'prod')).toBe(1)
    expect(containers(o)[0].env[0].value).toBe('prod')
  })

  it('creates missing map members on a definite path', () => {
    const o = deployment()
    set(o, "$.metadata.labels['app.kubernetes.io/tier']", 'edge')
    expect(o.metadata).toEqual({ labels: { 'app.kubernetes.io/tier': 'edge' } })
  })

  it('sets by negative index and bracketed index', () => {
    const o = deployment()
    set(o, '$.spec.template.spec.containers[-1].image', 'b:2')
    set(o, "$['spec']['template']['spec']['containers'][0]['image']", 'a:2')
    expect(containers(o).map((c) => c.image)).toEqual(['a:2', 'b:2'])
  })

  it('sets every place a wildcard, a list or a slice selects', () => {
    const o = deployment()
    expect(set(o, '$.spec.template.spec.containers[*].image', 'w')).toBe(2)
    expect(containers(o).map((c) => c.image)).toEqual(['w', 'w'])
    expect(set(o, '$.spec.template.spec.containers.*.name', 'n')).toBe(2)
    expect(set(o, '$.spec.template.spec.containers[1,0].image', 'l')).toBe(2)
    const list: JsonObject = { xs: [0, 1, 2, 3, 4, 5] }
    expect(set(list, '$.xs[1:5:2]', 9)).toBe(2)
    expect(list.xs).toEqual([0, 9, 2, 9, 4, 5])
    expect(set(list, '$.xs[::-2]', 7)).toBe(3)
    expect(list.xs).toEqual([0, 7, 2, 7, 4, 7])
    expect(set(list, '$.xs[-2:]', 8)).toBe(2)
    expect(list.xs).toEqual([0, 7, 2, 7, 8, 8])
  })

  it('sets every descendant member of a name', () => {
    const o = deployment()
    expect(set(o, '$..image', 'all:1')).toBe(2)
    expect(containers(o).map((c) => c.image)).toEqual(['all:1', 'all:1'])
    expect(set(o, '$.spec..env[0].value', 'deep')).toBe(1)
    expect(containers(o)[0].env[0].value).toBe('deep')
  })

  it('selects nothing without error, and never creates, on an indefinite path', () => {
    const o = deployment()
    expect(set(o, '$..nothing', 1)).toBe(0)
    expect(set(o, '$.spec.template.spec.containers[*].ports', [])).toBe(0)
    expect(set(o, '$.spec.template.spec.containers[5:9]', 1)).toBe(0)
    expect(o).toEqual(deployment())
  })

  it('gives every place its own copy of the value', () => {
    const o = deployment()
    set(o, '$.spec.template.spec.containers[*].image', { ref: { tag: '1' } })
    const [a, b] = containers(o)
    a.image.ref.tag = '2'
    expect(b.image.ref.tag).toBe('1')
  })

  it.each([
    ['$', 'the whole object cannot be replaced'],
    [
      '$.spec.template.spec.containers.0.image.tag',
      '$.spec.template.spec.containers[0].image is a string, not a map',
    ],
    [
      '$.spec.template.spec.containers.5',
      'index 5 is out of range: $.spec.template.spec.containers has 2 item(s)',
    ],
    [
      '$.spec.template.spec.volumes.0',
      '$.spec.template.spec.volumes is missing, so no index of it can be set',
    ],
    ['$.spec.template.0', '$.spec.template is a map, not a list'],
    ['$.spec.template.spec.containers.name', 'is a list, not a map'],
  ])('refuses %s', (path, what) => {
    const o = deployment()
    expect(() => set(o, path, 'x')).toThrow(ReplacementError)
    expect(() => set(o, path, 'x')).toThrow(what)
  })

  it('keeps __proto__ an ordinary member', () => {
    const o: JsonObject = {}
    set(o, "$['__proto__'].polluted", true)
    expect(Object.hasOwn(o, '__proto__')).toBe(true)
    expect(({} as any).polluted).toBeUndefined()
  })
})
