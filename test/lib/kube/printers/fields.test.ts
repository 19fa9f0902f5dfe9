import { describe, expect, it } from 'vitest'
import {
  containerCells,
  dig,
  formatLabelSelector,
  formatLabels,
  int,
  items,
  keyCount,
  optInt,
  record,
  selectorString,
  text,
  textOr,
} from '../../../../lib/kube/printers/fields.ts'

const obj = { spec: { replicas: 2.7, name: 'x', list: [1], map: { a: 1, b: 2 } }, n: null }

describe('readers', () => {
  it('digs dotted paths and reads typed values with zero defaults', () => {
    expect(dig(obj, 'spec.name')).toBe('x')
    expect(dig(obj, 'spec.name.deeper')).toBeUndefined()
    expect(dig(obj, 'n.x')).toBeUndefined()
    expect(text(obj, 'spec.replicas')).toBeUndefined()
    expect(textOr(obj, 'spec.missing', 'dflt')).toBe('dflt')
    expect(int(obj, 'spec.replicas')).toBe(2)
    expect(int(obj, 'spec.name')).toBe(0)
    expect(optInt(obj, 'spec.missing')).toBeUndefined()
    expect(items(obj, 'spec.list')).toEqual([1])
    expect(items(obj, 'spec.map')).toEqual([])
    expect(record(obj, 'spec.list')).toEqual({})
    expect(keyCount(obj, 'spec.map')).toBe(2)
  })
})

describe('formatters', () => {
  it('formats label maps sorted, <none> when empty', () => {
    expect(formatLabels({ b: '2', a: '1' })).toBe('a=1,b=2')
    expect(formatLabels({})).toBe('<none>')
    expect(formatLabels(undefined)).toBe('<none>')
  })

  it('formats label selectors like kube, sorted by key', () => {
    const sel = {
      matchLabels: { tier: 'web' },
      matchExpressions: [
        { key: 'env', operator: 'In', values: ['prod', 'dev'] },
        { key: 'zone', operator: 'NotIn', values: ['b'] },
        { key: 'canary', operator: 'DoesNotExist' },
        { key: 'app', operator: 'Exists' },
        { key: 'odd', operator: 'Bogus' },
      ],
    }
    expect(selectorString(sel)).toBe('app,!canary,env in (dev,prod),tier=web,zone notin (b)')
    expect(selectorString({})).toBe('')
    expect(selectorString('nope')).toBe('')
    expect(formatLabelSelector({})).toBe('<none>')
    expect(formatLabelSelector({ matchLabels: { a: 'b' } })).toBe('a=b')
  })

  it('lays out container names and images', () => {
    expect(
      containerCells([
        { name: 'a', image: 'img:1' },
        { name: 'b', image: 'img:2' },
      ])
    ).toEqual(['a,b', 'img:1,img:2'])
    expect(containerCells([])).toEqual(['', ''])
  })
})
