/**
 * The rule for two Rollouts selecting one object (lib/rollout/governor.ts): the oldest governs,
 * by creation time and then by name; a younger Rollout loses the shared keys and names its
 * governor; the older one names the younger ones; disjoint Rollouts see nothing.
 */
import { describe, expect, it } from 'vitest'
import { olderFirst, overlapsOf } from '../../../lib/rollout/governor.ts'

const r = (name: string, at: string, keys: string[]) => ({
  name,
  creationTimestamp: at,
  keys: new Set(keys),
})
const T1 = '2026-12-01T10:00:00Z'
const T2 = '2026-12-01T11:00:00Z'

describe('olderFirst', () => {
  it('orders by creation time, then by name', () => {
    const list = [r('b', T1, []), r('a', T2, []), r('a', T1, [])]
    expect(list.sort(olderFirst).map((x) => `${x.name}@${x.creationTimestamp}`)).toEqual([
      `a@${T1}`,
      `b@${T1}`,
      `a@${T2}`,
    ])
  })
})

describe('overlapsOf', () => {
  const old = r('old', T1, ['/configmaps/shop/a', '/configmaps/shop/b'])
  const young = r('young', T2, ['/configmaps/shop/b', '/configmaps/shop/c'])
  const apart = r('apart', T1, ['/configmaps/other/x'])

  it('leaves the younger Rollout the keys no older one selects, naming its governor', () => {
    const o = overlapsOf(young, [old, apart])
    expect([...o.governs]).toEqual(['/configmaps/shop/c'])
    expect(o.governedBy).toEqual([{ name: 'old', keys: ['/configmaps/shop/b'] }])
    expect(o.alsoSelecting).toEqual([])
  })

  it('keeps every key of the older Rollout and names the younger ones', () => {
    const o = overlapsOf(old, [young, apart])
    expect([...o.governs].sort()).toEqual(['/configmaps/shop/a', '/configmaps/shop/b'])
    expect(o.governedBy).toEqual([])
    expect(o.alsoSelecting).toEqual([{ name: 'young', keys: ['/configmaps/shop/b'] }])
  })

  it('breaks a tie of creation times by name, and ignores itself in the list', () => {
    const a = r('a', T1, ['k'])
    const b = r('b', T1, ['k'])
    expect(overlapsOf(b, [a, b]).governedBy).toEqual([{ name: 'a', keys: ['k'] }])
    expect(overlapsOf(a, [a, b]).governedBy).toEqual([])
    expect([...overlapsOf(b, [a]).governs]).toEqual([])
  })

  it('sees nothing between Rollouts without shared keys', () => {
    const o = overlapsOf(apart, [old, young])
    expect(o).toEqual({ governedBy: [], alsoSelecting: [], governs: apart.keys })
  })
})
