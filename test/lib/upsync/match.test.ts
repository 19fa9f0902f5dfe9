import { describe, expect, it } from 'vitest'
import type { UpsyncSet } from '../../../lib/apis/edge-v1alpha1.ts'
import {
  isUpsyncable,
  namesResource,
  selectsNamed,
  type UpsyncCandidate,
  upsyncSelects,
  upsyncSetsOf,
} from '../../../lib/upsync/match.ts'

const cm = (namespace: string, name: string): UpsyncCandidate => ({
  group: '',
  resource: 'configmaps',
  namespace,
  name,
  namespaced: true,
})
const pv = (name: string): UpsyncCandidate => ({
  group: '',
  resource: 'persistentvolumes',
  namespace: '',
  name,
  namespaced: false,
})
const CMS: UpsyncSet = { apiGroup: '', resources: ['configmaps'], namespaces: ['ns'], names: ['*'] }

describe('upsyncSelects', () => {
  it.each<[string, UpsyncSet, UpsyncCandidate, boolean]>([
    ['matching namespace and any name', CMS, cm('ns', 'x'), true],
    ['another namespace', CMS, cm('other', 'x'), false],
    ['another resource', CMS, { ...cm('ns', 'x'), resource: 'secrets' }, false],
    ['another group', CMS, { ...cm('ns', 'x'), group: 'apps' }, false],
    ['absent apiGroup is core', { ...CMS, apiGroup: undefined }, cm('ns', 'x'), true],
    ['"*" group', { ...CMS, apiGroup: '*' }, { ...cm('ns', 'x'), group: 'apps' }, true],
    ['"*" namespaces', { ...CMS, namespaces: ['*'] }, cm('other', 'x'), true],
    ['named', { ...CMS, names: ['a', 'b'] }, cm('ns', 'b'), true],
    ['not named', { ...CMS, names: ['a'] }, cm('ns', 'b'), false],
    ['empty names select nothing', { ...CMS, names: [] }, cm('ns', 'x'), false],
    ['absent resources select nothing', { ...CMS, resources: undefined }, cm('ns', 'x'), false],
    ['absent namespaces select nothing', { ...CMS, namespaces: undefined }, cm('ns', 'x'), false],
    [
      'cluster-scoped ignores namespaces',
      { apiGroup: '', resources: ['persistentvolumes'], names: ['pv1'] },
      pv('pv1'),
      true,
    ],
    [
      'cluster-scoped still needs the name',
      { apiGroup: '', resources: ['persistentvolumes'], names: ['pv1'] },
      pv('pv2'),
      false,
    ],
  ])('%s', (_, set, candidate, expected) => {
    expect(upsyncSelects(set, candidate)).toBe(expected)
  })
})

describe('upsyncSetsOf', () => {
  it('takes the valid sets of spec.upsync, none without a SyncerConfig', () => {
    const config = {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'SyncerConfig',
      metadata: { name: 'the-one' },
      spec: { upsync: [CMS, { resources: 'not-a-list' }, 7] },
    }
    expect(upsyncSetsOf(config)).toEqual([CMS])
    expect(upsyncSetsOf(undefined)).toEqual([])
    expect(upsyncSetsOf({ ...config, spec: {} })).toEqual([])
  })

  it('lets any set select', () => {
    const sets = upsyncSetsOf({
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'SyncerConfig',
      metadata: { name: 'the-one' },
      spec: {
        upsync: [
          { ...CMS, names: ['a'] },
          { ...CMS, names: ['b'] },
        ],
      },
    })
    expect([isUpsyncable(sets, cm('ns', 'b')), isUpsyncable(sets, cm('ns', 'c'))]).toEqual([
      true,
      false,
    ])
  })
})

describe('selectsNamed', () => {
  it.for<[set: UpsyncSet, namespaced: boolean, ns: string, name: string, want: boolean]>([
    [{ names: ['*'], namespaces: ['a'] }, true, 'a', 'x', true],
    [{ names: ['*'], namespaces: ['a'] }, true, 'b', 'x', false],
    [{ names: ['x'], namespaces: ['*'] }, true, 'b', 'x', true],
    [{ names: ['y'], namespaces: ['*'] }, true, 'b', 'x', false],
    [{ names: ['x'] }, false, '', 'x', true],
    [{ names: [] }, false, '', 'x', false],
  ])('%j namespaced=%s %s/%s → %s', ([set, namespaced, ns, name, expected]) => {
    expect(selectsNamed(set, namespaced, ns, name)).toBe(expected)
  })
})

describe('namesResource', () => {
  it.for<[string, UpsyncSet, string, string, boolean]>([
    ['its group and resource', CMS, '', 'configmaps', true],
    ['another resource', CMS, '', 'secrets', false],
    ['another group', CMS, 'apps', 'configmaps', false],
    ['"*" group and resources', { ...CMS, apiGroup: '*', resources: ['*'] }, 'x.io', 'ys', true],
    ['absent resources', { ...CMS, resources: undefined }, '', 'configmaps', false],
  ])('%s', ([_, set, group, resource, expected]) => {
    expect(namesResource(set, group, resource)).toBe(expected)
  })
})

describe('upsyncSetsOf an EdgePlacement', () => {
  it('reads its own spec.upsync like the SyncerConfig one', () => {
    const placement = {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'EdgePlacement',
      metadata: { name: 'ep' },
      spec: { locationSelectors: [], upsync: [CMS, 'junk'] },
    }
    expect(upsyncSetsOf(placement)).toEqual([CMS])
    expect(upsyncSetsOf({ ...placement, spec: { upsync: 'not-a-list' } })).toEqual([])
    expect(upsyncSetsOf({ ...placement, spec: undefined })).toEqual([])
  })
})
