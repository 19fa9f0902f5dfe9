import { describe, expect, it } from 'vitest'
import {
  chunks,
  edgePlacement,
  fanNamespace,
  location,
  syncTarget,
  targetName,
} from '../../bench/fan-out-objects.ts'
import { matchesLabelSelector } from '../../lib/kube/label-selector.ts'

describe('chunks', () => {
  it.each([
    [[], 3, []],
    [[1, 2, 3], 3, [[1, 2, 3]]],
    [[1, 2, 3, 4], 3, [[1, 2, 3], [4]]],
    [[1, 2], 1, [[1], [2]]],
  ])('cuts %j into slices of %i', (list, size, want) => {
    expect(chunks(list, size)).toEqual(want)
  })
  it('refuses a size below one', () => {
    expect(() => chunks([1], 0)).toThrow(RangeError)
  })
})

describe('targetName', () => {
  it('pads to the widest index so names sort in creation order', () => {
    expect(targetName(7, 1000)).toBe('st-007')
    expect(targetName(999, 1000)).toBe('st-999')
    expect(targetName(0, 1)).toBe('st-0')
    const names = Array.from({ length: 120 }, (_, i) => targetName(i, 120))
    expect([...names].sort()).toEqual(names)
  })
})

describe('the fan-out objects', () => {
  it('select each other: Location -> its SyncTarget, EdgePlacement -> Locations and namespace', () => {
    const st = syncTarget('st-1')
    const loc = location('st-1')
    const ep = edgePlacement()
    const spec = loc.spec as { instanceSelector: never }
    expect(matchesLabelSelector(st.metadata.labels, spec.instanceSelector)).toBe(true)
    expect(matchesLabelSelector(syncTarget('st-2').metadata.labels, spec.instanceSelector)).toBe(
      false
    )
    const epSpec = ep.spec as { locationSelectors: never[]; namespaceSelector: never }
    expect(matchesLabelSelector(loc.metadata.labels, epSpec.locationSelectors[0]!)).toBe(true)
    expect(matchesLabelSelector(fanNamespace().metadata.labels, epSpec.namespaceSelector)).toBe(
      true
    )
  })
})
