/**
 * Pruning by segment paths (lib/kube/validate-prune.ts): the named fields go, everything else
 * stays, the input is not changed, and untouched branches are shared rather than copied.
 */
import { describe, expect, it } from 'vitest'
import { withoutFields } from '../../../lib/kube/validate-prune.ts'

describe('withoutFields', () => {
  const input = () => ({
    spec: {
      keep: { deep: 1 },
      bogus: { a: 1 },
      list: [{ name: 'a', extra: 1 }, { name: 'b' }],
    },
    status: { phase: 'x' },
  })

  it('removes the fields at the paths, in objects and list items', () => {
    const value = input()
    const out = withoutFields(value, [
      ['spec', 'bogus'],
      ['spec', 'list', 0, 'extra'],
    ])
    expect(out).toEqual({
      spec: { keep: { deep: 1 }, list: [{ name: 'a' }, { name: 'b' }] },
      status: { phase: 'x' },
    })
    expect(value).toEqual(input())
    expect(out.status).toBe(value.status)
    expect(out.spec.keep).toBe(value.spec.keep)
    expect(out.spec.list[1]).toBe(value.spec.list[1])
  })

  it('returns the value itself with no paths, and skips paths that lead nowhere', () => {
    const value = input()
    expect(withoutFields(value, [])).toBe(value)
    expect(
      withoutFields(value, [
        ['spec', 'missing', 'x'],
        ['spec', 'list', 5, 'a'],
        ['spec', 'keep', 'deep', 'x'],
      ])
    ).toEqual(input())
  })

  it('removes a key with a dot in it as one segment', () => {
    expect(withoutFields({ m: { 'a.b': 1, a: { b: 2 } } }, [['m', 'a.b']])).toEqual({
      m: { a: { b: 2 } },
    })
  })
})
