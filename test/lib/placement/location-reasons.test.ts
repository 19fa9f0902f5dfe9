/**
 * The rule behind `status.unselectedLocations`: each reason (SelectorMismatch with the failing
 * term per selector, LocationDeleting, NotSyncTargets, NoSyncTarget, NoMailbox), a Location
 * matched with only some mailboxes selected, the order by (cluster, name), the bound of 20 listed
 * with the count of all, and what `selected` holds.
 */
import { describe, expect, it } from 'vitest'
import type { LocationObject, SyncTargetObject } from '../../../lib/apis/edge-objects.ts'
import type { LabelSelector } from '../../../lib/kube/label-selector.ts'
import {
  destinationsFor,
  mailboxOfDestination,
  matchingLocations,
} from '../../../lib/placement/destinations.ts'
import { locationOutcome } from '../../../lib/placement/location-reasons.ts'

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
    spec.instanceSelector = extra.instanceSelector ?? { matchLabels: { loc: name } }
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

const st = (cluster: string, name: string, labels: Record<string, string>): SyncTargetObject => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'SyncTarget',
  metadata: { name, uid: `uid-${name}`, labels, annotations: { 'kcp.io/cluster': cluster } },
})

/** The where of `selectors` over `locations` and `targets`, with the mailboxes that exist. */
function outcome(
  selectors: LabelSelector[],
  locations: LocationObject[],
  targets: SyncTargetObject[],
  mailboxes?: (stName: string) => boolean
) {
  const matched = matchingLocations(selectors, locations)
  const destinations = destinationsFor(matched, (space) =>
    targets.filter((t) => t.metadata.annotations?.['kcp.io/cluster'] === space)
  )
  const byMailbox = new Map(destinations.map((d) => [mailboxOfDestination(d), d.syncTargetName]))
  const hasMailbox = mailboxes && ((mb: string) => mailboxes(byMailbox.get(mb) ?? ''))
  return locationOutcome({
    selectors,
    locations,
    matched,
    destinations,
    ...(hasMailbox ? { hasMailbox } : {}),
  })
}

const prod = [{ matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }] }]

describe('locationOutcome', () => {
  it('gives each unselected Location its reason, ordered by (cluster, name)', () => {
    const locations = [
      loc('inv2', 'a-dev', { env: 'dev' }),
      loc('inv1', 'z-ok', { env: 'prod' }),
      loc('inv1', 'gone', { env: 'prod' }, { deleting: true }),
      loc('inv1', 'other-kind', { env: 'prod' }, { resource: 'clusters' }),
      loc('inv1', 'empty', { env: 'prod' }),
      loc('inv1', 'no-selector', { env: 'prod' }, { instanceSelector: null }),
      loc('inv1', 'waiting', { env: 'prod' }),
      loc('inv1', 'half', { env: 'prod' }),
    ]
    const targets = [
      st('inv1', 'z-ok', { loc: 'z-ok' }),
      st('inv1', 'waiting', { loc: 'waiting' }),
      st('inv1', 'half-1', { loc: 'half' }),
      st('inv1', 'half-2', { loc: 'half' }),
    ]
    const got = outcome(prod, locations, targets, (name) => name !== 'waiting' && name !== 'half-2')
    expect(got.unselected.count).toBe(6)
    expect(got.unselected.items.map((u) => [u.cluster, u.name, u.reason])).toEqual([
      ['inv1', 'empty', 'NoSyncTarget'],
      ['inv1', 'gone', 'LocationDeleting'],
      ['inv1', 'no-selector', 'NoSyncTarget'],
      ['inv1', 'other-kind', 'NotSyncTargets'],
      ['inv1', 'waiting', 'NoMailbox'],
      ['inv2', 'a-dev', 'SelectorMismatch'],
    ])
    const message = (name: string) => got.unselected.items.find((u) => u.name === name)?.message
    expect(message('a-dev')).toBe('locationSelectors[0]: env in (prod): the Location has env=dev')
    expect(message('empty')).toBe('its instanceSelector selects no live SyncTarget in its space')
    expect(message('no-selector')).toBe('it has no instanceSelector, which selects no SyncTarget')
    expect(message('gone')).toBe('the Location is being deleted')
    expect(message('other-kind')).toBe(
      'its spec.resource is clusters.edge.kcp.io, not synctargets.edge.kcp.io'
    )
    expect(message('waiting')).toBe('its SyncTarget "waiting" has no mailbox yet')
    // A Location with some of its mailboxes is selected.
    expect(got.selected.map((l) => l.metadata.name)).toEqual(['half', 'z-ok'])
  })

  it('calls a deleting or other-kind Location no selector matches a SelectorMismatch', () => {
    const locations = [
      loc('inv1', 'gone', { env: 'dev' }, { deleting: true }),
      loc('inv1', 'other-kind', { env: 'dev' }, { resource: 'clusters' }),
    ]
    const got = outcome(prod, locations, [])
    expect(got.unselected.items.map((u) => u.reason)).toEqual([
      'SelectorMismatch',
      'SelectorMismatch',
    ])
  })

  it('explains the first three selectors and counts the rest', () => {
    const selectors: LabelSelector[] = [
      { matchLabels: { env: 'prod' } },
      { matchLabels: { region: 'east' } },
      { matchExpressions: [{ key: 'tier', operator: 'Exists' }] },
      { matchLabels: { a: 'b' } },
      { matchLabels: { c: 'd' } },
    ]
    const got = outcome(selectors, [loc('inv1', 'x', { env: 'dev', region: 'west' })], [])
    expect(got.unselected.items[0]?.message).toBe(
      'locationSelectors[0]: env=prod: the Location has env=dev; ' +
        'locationSelectors[1]: region=east: the Location has region=west; ' +
        'locationSelectors[2]: tier: the Location has no tier label; and 2 more selectors'
    )
    const none = outcome([], [loc('inv1', 'x', {})], [])
    expect(none.unselected.items[0]).toMatchObject({
      reason: 'SelectorMismatch',
      message: 'spec.locationSelectors is empty: it selects no Location',
    })
  })

  it('names at most three SyncTargets without a mailbox', () => {
    const targets = ['s1', 's2', 's3', 's4'].map((n) => st('inv1', n, { loc: 'many' }))
    const got = outcome(prod, [loc('inv1', 'many', { env: 'prod' })], targets, () => false)
    expect(got.unselected.items[0]).toMatchObject({
      reason: 'NoMailbox',
      message: 'none of its 4 SyncTargets ("s1", "s2", "s3", …) has a mailbox yet',
    })
  })

  it('without a mailbox check, every mailbox counts as existing', () => {
    const got = outcome(prod, [loc('inv1', 'x', { env: 'prod' })], [st('inv1', 'x', { loc: 'x' })])
    expect(got.unselected).toEqual({ count: 0, items: [] })
    expect(got.selected).toHaveLength(1)
  })

  it('lists the first 20 by (cluster, name) and counts them all', () => {
    const locations = Array.from({ length: 45 }, (_, i) =>
      loc(i % 2 ? 'inv-b' : 'inv-a', `l-${String(44 - i).padStart(2, '0')}`, { env: 'dev' })
    )
    const got = outcome(prod, locations, [])
    expect(got.unselected.count).toBe(45)
    expect(got.unselected.items).toHaveLength(20)
    const keys = got.unselected.items.map((u) => `${u.cluster}/${u.name}`)
    expect(keys).toEqual([...keys].sort())
    expect(keys.every((k) => k.startsWith('inv-a/'))).toBe(true)
    expect(outcome(prod, [...locations].reverse(), [])).toEqual(got)
  })
})
