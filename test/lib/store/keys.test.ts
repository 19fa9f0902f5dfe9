import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../lib/errors.ts'
import {
  checkCollection,
  checkObjectKey,
  headKey,
  logPkForHead,
  objectGsiSk,
  padRv,
} from '../../../lib/store/keys.ts'
import { cmKey } from './fixtures.ts'

describe('key layout', () => {
  it('pads resourceVersions so string order is numeric order', () => {
    const rvs = [1, 9, 10, 99, 100, 123456789, Number.MAX_SAFE_INTEGER]
    const padded = rvs.map(padRv)
    expect(padded.every((p) => p.length === 20)).toBe(true)
    expect([...padded].sort()).toEqual(padded)
  })

  it('lays out object heads, their log partition and index key', () => {
    expect(headKey(cmKey('a', 'ns', 'c1'))).toEqual({ pk: 'o#c1#/configmaps', sk: 'ns/a' })
    const deploy = {
      cluster: 'c9',
      group: 'apps',
      resource: 'deployments',
      namespace: '',
      name: 'd',
    }
    expect(headKey(deploy)).toEqual({ pk: 'o#c9#apps/deployments', sk: '/d' })
    expect(logPkForHead('o#c9#apps/deployments')).toBe('l#c9#apps/deployments')
    expect(objectGsiSk(deploy)).toBe('c9#/d')
  })

  it('rejects key parts that would break the layout', () => {
    const bad = [
      { ...cmKey('a'), name: '' },
      { ...cmKey('a'), name: 'x/y' },
      { ...cmKey('a'), cluster: 'c#1' },
      { ...cmKey('a'), cluster: '*' },
      { ...cmKey('a'), group: 'a/b' },
    ]
    for (const key of bad) {
      expect(() => checkObjectKey(key)).toThrow(ApiError)
    }
    expect(() => checkObjectKey(cmKey('system:controller', ''))).not.toThrow()
    expect(() => checkCollection({ cluster: '*', group: '', resource: 'pods' })).not.toThrow()
    expect(() =>
      checkCollection({ cluster: 'c', group: '', resource: 'pods', namespace: 'a/b' })
    ).toThrow(ApiError)
  })
})
