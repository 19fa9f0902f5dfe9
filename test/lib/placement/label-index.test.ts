/**
 * The label index narrows a selector to the objects that could match, never dropping one that
 * does: checked against testing every object, over selectors of every operator.
 */
import { describe, expect, it } from 'vitest'
import {
  type LabelRequirement,
  labelSelectorRequirements,
  matchesRequirements,
} from '../../../lib/kube/label-selector.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { labelIndex } from '../../../lib/placement/label-index.ts'

const obj = (name: string, labels: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'X',
  metadata: { name, labels },
})
const objects = [
  obj('a', { id: 'a', env: 'prod', tier: '1' }),
  obj('b', { id: 'b', env: 'prod' }),
  obj('c', { id: 'c', env: 'dev', tier: '2' }),
  obj('d', { id: 'd' }),
  obj('e', {}),
]
const names = (list: readonly KubeObject[]) => list.map((o) => o.metadata.name)
const reqs = (matchLabels: Record<string, string>, matchExpressions: LabelRequirement[] = []) =>
  labelSelectorRequirements({
    matchLabels,
    matchExpressions: matchExpressions.map((r) => ({ ...r, operator: r.operator as 'In' })),
  }) ?? []

describe('labelIndex', () => {
  const index = labelIndex(objects)

  it('narrows to the smallest set an equality or In asks for', () => {
    expect(names(index.candidates(reqs({ id: 'c' })))).toEqual(['c'])
    expect(names(index.candidates(reqs({ env: 'prod', id: 'b' })))).toEqual(['b'])
    const inList = reqs({}, [{ key: 'id', operator: 'In', values: ['d', 'a', 'a'] }])
    expect(names(index.candidates(inList))).toEqual(['a', 'd'])
    expect(index.candidates(reqs({ id: 'zz' }))).toEqual([])
  })

  it('keeps every object when no requirement names values it must have', () => {
    const loose = reqs({}, [
      { key: 'tier', operator: 'Exists', values: [] },
      { key: 'env', operator: 'NotIn', values: ['dev'] },
    ])
    expect(names(index.candidates(loose))).toEqual(['a', 'b', 'c', 'd', 'e'])
    expect(names(index.candidates([]))).toEqual(['a', 'b', 'c', 'd', 'e'])
  })

  it('never drops an object the requirements match', () => {
    const selectors: LabelRequirement[][] = [
      reqs({ env: 'prod' }),
      reqs({ env: 'prod' }, [{ key: 'tier', operator: 'DoesNotExist', values: [] }]),
      reqs({}, [{ key: 'env', operator: 'In', values: ['dev', 'prod'] }]),
      reqs({}, [
        { key: 'id', operator: 'In', values: ['a', 'c'] },
        { key: 'tier', operator: 'NotIn', values: ['2'] },
      ]),
      reqs({}, [{ key: 'tier', operator: 'GreaterThan', values: ['1'] }]),
    ]
    for (const r of selectors) {
      const all = objects.filter((o) => matchesRequirements(o.metadata.labels, r))
      const narrowed = index.candidates(r).filter((o) => matchesRequirements(o.metadata.labels, r))
      expect(names(narrowed)).toEqual(names(all))
    }
  })
})
