import { describe, expect, it } from 'vitest'
import type {
  EdgePlacementObject,
  LocationObject,
  SyncTargetObject,
} from '../../../lib/apis/edge-objects.ts'
import type { LabelSelector } from '../../../lib/kube/label-selector.ts'
import {
  canonicalDestinations,
  destinationsFor,
  locationSelectorsOf,
  mailboxOfDestination,
  matchingLocations,
  sliceDestinations,
  uniqueDestinations,
} from '../../../lib/placement/destinations.ts'

const SYNCTARGETS = { group: 'edge.kcp.io', version: 'v1alpha1', resource: 'synctargets' }

function loc(
  cluster: string,
  name: string,
  labels: Record<string, string>,
  extra: {
    instanceSelector?: LocationObject['spec']['instanceSelector'] | null
    resource?: string
    deleting?: boolean
  } = {}
): LocationObject {
  const spec: LocationObject['spec'] = {
    resource: { ...SYNCTARGETS, resource: extra.resource ?? 'synctargets' },
  }
  if (extra.instanceSelector !== null)
    spec.instanceSelector = extra.instanceSelector ?? { matchLabels: { id: name } }
  return {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'Location',
    metadata: {
      name,
      labels,
      annotations: { 'kcp.io/cluster': cluster },
      ...(extra.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    spec,
  }
}

function st(
  cluster: string,
  name: string,
  labels: Record<string, string>,
  deleting = false
): SyncTargetObject {
  return {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'SyncTarget',
    metadata: {
      name,
      uid: `uid-${cluster}-${name}`,
      labels,
      annotations: { 'kcp.io/cluster': cluster },
      ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
  }
}

const locations = [
  loc('imwb', 'west', { env: 'prod', region: 'west' }),
  loc('imwa', 'east', { env: 'prod', region: 'east' }),
  loc('imwa', 'lab', { env: 'dev' }),
  loc('imwa', 'gone', { env: 'prod' }, { deleting: true }),
  loc('imwa', 'nodes', { env: 'prod' }, { resource: 'nodes' }),
]

describe('matchingLocations', () => {
  const cases: { name: string; selectors: LabelSelector[]; want: string[] }[] = [
    { name: 'no selectors match nothing', selectors: [], want: [] },
    {
      name: '{} matches every live synctarget Location',
      selectors: [{}],
      want: ['imwa/east', 'imwa/lab', 'imwb/west'],
    },
    {
      name: 'selectors are ORed',
      selectors: [{ matchLabels: { region: 'west' } }, { matchLabels: { env: 'dev' } }],
      want: ['imwa/lab', 'imwb/west'],
    },
    {
      name: 'overlapping selectors list a Location once',
      selectors: [{ matchLabels: { env: 'prod' } }, { matchLabels: { region: 'east' } }],
      want: ['imwa/east', 'imwb/west'],
    },
    {
      name: 'matchExpressions',
      selectors: [{ matchExpressions: [{ key: 'region', operator: 'NotIn', values: ['west'] }] }],
      want: ['imwa/east', 'imwa/lab'],
    },
    {
      name: 'an invalid selector matches nothing',
      selectors: [{ matchExpressions: [{ key: 'env', operator: 'Bogus' }] }],
      want: [],
    },
  ]
  for (const c of cases) {
    it(c.name, () => {
      const got = matchingLocations(c.selectors, locations).map(
        (l) => `${l.metadata.annotations?.['kcp.io/cluster']}/${l.metadata.name}`
      )
      expect(got).toEqual(c.want)
    })
  }
})

describe('destinationsFor', () => {
  const targets: Record<string, SyncTargetObject[]> = {
    imwa: [
      st('imwa', 'east', { id: 'east' }),
      st('imwa', 'lab-1', { pool: 'lab' }),
      st('imwa', 'lab-2', { pool: 'lab' }),
      st('imwa', 'lab-3', { pool: 'lab' }, true),
    ],
    imwb: [st('imwb', 'east', { id: 'east' }), st('imwb', 'west', { id: 'west' })],
  }
  const inSpace = (id: string) => targets[id] ?? []
  const cases: { name: string; locations: LocationObject[]; want: string[] }[] = [
    {
      name: 'convention id=<name> in the Location’s own space only',
      locations: [loc('imwa', 'east', {})],
      want: ['imwa/east/east'],
    },
    {
      name: 'an instanceSelector matching two SyncTargets, skipping one being deleted',
      locations: [loc('imwa', 'lab', {}, { instanceSelector: { matchLabels: { pool: 'lab' } } })],
      want: ['imwa/lab/lab-1', 'imwa/lab/lab-2'],
    },
    {
      name: 'an absent instanceSelector selects none',
      locations: [loc('imwa', 'east', {}, { instanceSelector: null })],
      want: [],
    },
    {
      name: 'an empty instanceSelector selects all',
      locations: [loc('imwb', 'all', {}, { instanceSelector: {} })],
      want: ['imwb/all/east', 'imwb/all/west'],
    },
    {
      name: 'one SyncTarget through two Locations appears once per pair',
      locations: [
        loc('imwb', 'z', {}, { instanceSelector: { matchLabels: { id: 'west' } } }),
        loc('imwb', 'west', {}),
      ],
      want: ['imwb/west/west', 'imwb/z/west'],
    },
    {
      name: 'an unknown space has no SyncTargets',
      locations: [loc('nowhere', 'east', {})],
      want: [],
    },
  ]
  for (const c of cases) {
    it(c.name, () => {
      const got = destinationsFor(c.locations, inSpace)
      expect(got.map((d) => `${d.cluster}/${d.locationName}/${d.syncTargetName}`)).toEqual(c.want)
      for (const d of got) expect(d.syncTargetUID).toBe(`uid-${d.cluster}-${d.syncTargetName}`)
    })
  }
})

describe('canonicalDestinations', () => {
  it('normalises, sorts and removes exact duplicates of decoded destinations', () => {
    const stored = [
      { syncTargetUID: 'u2', syncTargetName: 'b', locationName: 'l', cluster: 'c' },
      { cluster: 'c', locationName: 'l', syncTargetName: 'a', syncTargetUID: 'u1' },
      { cluster: 'c', locationName: 'l', syncTargetName: 'b', syncTargetUID: 'u2' },
      { cluster: 'c', locationName: 'l', syncTargetName: 'b' },
    ]
    expect(canonicalDestinations(stored)).toEqual([
      { cluster: 'c', locationName: 'l', syncTargetName: 'a', syncTargetUID: 'u1' },
      { cluster: 'c', locationName: 'l', syncTargetName: 'b', syncTargetUID: '' },
      { cluster: 'c', locationName: 'l', syncTargetName: 'b', syncTargetUID: 'u2' },
    ])
  })
  it('gives none for none', () => {
    expect(canonicalDestinations([])).toEqual([])
  })
})

describe('locationSelectorsOf', () => {
  const ep = (spec?: EdgePlacementObject['spec']): EdgePlacementObject => ({
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'EdgePlacement',
    metadata: { name: 'p' },
    ...(spec ? { spec } : {}),
  })
  it('reads the list; an absent spec or list selects nothing', () => {
    expect(locationSelectorsOf(ep({ locationSelectors: [{ matchLabels: { a: 'b' } }] }))).toEqual([
      { matchLabels: { a: 'b' } },
    ])
    expect(locationSelectorsOf(ep())).toEqual([])
    expect(locationSelectorsOf(ep({}))).toEqual([])
  })
})

describe('mailboxOfDestination and uniqueDestinations', () => {
  const dest = (cluster: string, locationName: string, uid: string) => ({
    cluster,
    locationName,
    syncTargetName: `st-${uid}`,
    syncTargetUID: uid,
  })
  it('names the mailbox of the SyncTarget, whatever the Location', () => {
    expect(mailboxOfDestination(dest('inv1', 'a', 'u1'))).toBe('inv1-mb-u1')
    expect(mailboxOfDestination(dest('inv1', 'b', 'u1'))).toBe('inv1-mb-u1')
  })
  it('keeps one destination per mailbox, the first in order', () => {
    const list = [dest('inv1', 'a', 'u1'), dest('inv1', 'b', 'u1'), dest('inv2', 'a', 'u1')]
    expect(uniqueDestinations(list)).toEqual([dest('inv1', 'a', 'u1'), dest('inv2', 'a', 'u1')])
    expect(uniqueDestinations([])).toEqual([])
  })
})

describe('sliceDestinations', () => {
  const dest = (cluster: string, locationName: string, uid?: string) => ({
    cluster,
    locationName,
    syncTargetName: `st-${uid ?? 'none'}`,
    ...(uid === undefined ? {} : { syncTargetUID: uid }),
  })
  it('reads one destination per SyncTarget, its first Location by name, none without a uid', () => {
    const destinations = [
      dest('inv2', 'west', 'u2'),
      dest('inv1', 'west', 'u1'),
      dest('inv1', 'east', 'u1'),
      dest('inv1', 'east', 'u1'),
      dest('inv1', 'aaa'),
      dest('inv2', 'east', 'u1'),
    ]
    expect(sliceDestinations({ destinations })).toEqual([
      dest('inv1', 'east', 'u1'),
      dest('inv2', 'east', 'u1'),
      dest('inv2', 'west', 'u2'),
    ])
    expect(sliceDestinations({})).toEqual([])
  })
})
