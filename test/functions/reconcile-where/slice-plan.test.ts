/**
 * How an EdgePlacement's destinations are spread over its slices: filled up to the budget, a
 * destination staying where it is, a duplicate kept once, new ones into the first slice with room
 * or a new part, empty parts removed, the slice named after the placement always kept.
 */
import { describe, expect, it } from 'vitest'
import {
  destinationBytes,
  type HeldSlice,
  planSlices,
} from '../../../functions/reconcile-where/slice-plan.ts'
import type { Destination } from '../../../lib/placement/destinations.ts'

const dest = (n: number): Destination => ({
  cluster: 'inv1',
  locationName: 'loc',
  syncTargetName: `st${String(n).padStart(3, '0')}`,
  syncTargetUID: `u${n}`,
})
const range = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => dest(from + i))
/** Room for exactly `n` destinations of this shape. */
const room = (n: number) => destinationBytes(dest(100)) * n
const names = (ds: readonly Destination[]) => ds.map((d) => d.syncTargetName.slice(2))
const held = (slice: string, ds: Destination[] | undefined): HeldSlice<string> => ({
  slice,
  destinations: ds,
})
const isPrimary = (s: string) => s === 'p'

describe('planSlices', () => {
  it('fills the slice named after the placement, then new parts, up to the budget', () => {
    const plan = planSlices({
      held: [],
      desired: range(100, 107),
      isPrimary,
      createPrimary: true,
      budgetBytes: room(3),
    })
    expect(plan.keep).toEqual([])
    expect(plan.create.map(names)).toEqual([['100', '101', '102'], ['103', '104', '105'], ['106']])
    expect(plan.remove).toEqual([])
  })

  it('keeps every destination still wanted where it is and puts new ones where there is room', () => {
    const plan = planSlices({
      held: [held('p', range(100, 103)), held('p-a', range(103, 106))],
      desired: [...range(101, 103), ...range(103, 106), dest(150), dest(151), dest(152)],
      isPrimary,
      createPrimary: false,
      budgetBytes: room(3),
    })
    // 100 left: the primary has room for one; the part is full; the rest start a new part.
    expect(plan.keep.map((k) => [k.slice, names(k.destinations)])).toEqual([
      ['p', ['101', '102', '150']],
      ['p-a', ['103', '104', '105']],
    ])
    expect(plan.create.map(names)).toEqual([['151', '152']])
  })

  it('removes parts left empty but keeps the primary, even empty', () => {
    const plan = planSlices({
      held: [held('p', range(100, 102)), held('p-a', range(102, 104)), held('p-b', [dest(104)])],
      desired: [dest(102)],
      isPrimary,
      createPrimary: false,
      budgetBytes: room(2),
    })
    expect(plan.keep.map((k) => [k.slice, names(k.destinations)])).toEqual([
      ['p', []],
      ['p-a', ['102']],
    ])
    expect(plan.remove).toEqual(['p-b'])
    expect(plan.create).toEqual([])
  })

  it('keeps a destination written twice (a race) in the first slice only', () => {
    const plan = planSlices({
      held: [held('p', range(100, 102)), held('p-a', range(101, 103))],
      desired: range(100, 103),
      isPrimary,
      createPrimary: false,
      budgetBytes: room(5),
    })
    expect(plan.keep.map((k) => [k.slice, names(k.destinations)])).toEqual([
      ['p', ['100', '101']],
      ['p-a', ['102']],
    ])
  })

  it('refills a slice whose destinations did not decode', () => {
    const plan = planSlices({
      held: [held('p', undefined)],
      desired: range(100, 102),
      isPrimary,
      createPrimary: false,
      budgetBytes: room(5),
    })
    expect(plan.keep.map((k) => [k.slice, names(k.destinations)])).toEqual([['p', ['100', '101']]])
  })

  it('creates the primary, empty, when the placement selects nothing; a part when its name is taken', () => {
    const none = { held: [], desired: [], isPrimary, budgetBytes: room(2) }
    expect(planSlices({ ...none, createPrimary: true }).create).toEqual([[]])
    // Its name taken by another placement's slice, and no part: one empty part.
    expect(planSlices({ ...none, createPrimary: false }).create).toEqual([[]])
    // Parts that hold something are enough.
    const parts = planSlices({
      ...none,
      held: [held('p-a', [dest(1)])],
      desired: [dest(1)],
      createPrimary: false,
    })
    expect(parts.create).toEqual([])
  })

  it('fits about 2,500 real destinations per slice at the default budget', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => ({
      cluster: 'k3x9z2m4p7q1w8e5',
      locationName: `edge-${i}`,
      syncTargetName: `edge-${i}`,
      syncTargetUID: `0a1b2c3d-1111-2222-3333-${String(i).padStart(12, '0')}`,
    }))
    const plan = planSlices({ held: [], desired: many, isPrimary, createPrimary: true })
    expect(plan.create.length).toBeGreaterThanOrEqual(3)
    expect(plan.create.flat()).toHaveLength(10_000)
    for (const part of plan.create) expect(JSON.stringify(part).length).toBeLessThan(420_000)
  })
})
