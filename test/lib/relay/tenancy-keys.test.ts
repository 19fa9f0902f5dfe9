/**
 * An administrator's tenancy objects through the relay's event keys: an Inventory or PlacementGrant
 * event wakes every mailbox (by SyncTarget, including those of a space that just became inventory),
 * every placement's where and summarize key and every mailbox a slice reaches, and leaves out
 * placements and SyncTargets of the provider spaces; a write that moves neither uid nor generation
 * wakes nothing; other tenancy kinds (SpaceQuota) are not policy and wake no step.
 */
import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../lib/kube/types.ts'
import {
  type EventKeysDeps,
  keysForEvent,
  MAILBOX_STEP,
  mailboxOf,
  SUMMARIZE_STEP,
  TRANSLATE_STEP,
  WHERE_STEP,
} from '../../../lib/relay/event-keys.ts'
import { createSliceIndex } from '../../../lib/relay/slice-index.ts'
import { createSummarizeKeysState } from '../../../lib/relay/summarize-keys.ts'
import { isTenancyPolicy } from '../../../lib/relay/tenancy-keys.ts'

const GROUP = 'tenancy.edgeplane.io'
const uid = (n: number) => `0a1b2c3d-1111-2222-3333-00000000000${n}`

function obj(kind: string, name: string, cluster: string, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind,
    metadata: { name, annotations: { 'kcp.io/cluster': cluster }, ...extra },
  } as KubeObject
}
const grant = (generation: number) =>
  ({
    apiVersion: `${GROUP}/v1alpha1`,
    kind: 'PlacementGrant',
    metadata: { name: 'g', uid: uid(9), generation, annotations: { 'kcp.io/cluster': 'root' } },
    spec: {},
  }) as KubeObject

function world(): EventKeysDeps {
  const index = createSliceIndex()
  index.set('ws1', 'p1', ['inv1-mb-a', 'inv1-mb-b'])
  index.set('ws2', 'p2', ['inv1-mb-b'])
  return {
    espwSpaceId: 'espw1',
    index,
    summarize: createSummarizeKeysState(),
    specs: new Map(),
    listEdgePlacements: async () => [
      obj('EdgePlacement', 'p1', 'ws1'),
      obj('EdgePlacement', 'p2', 'ws2'),
      obj('EdgePlacement', 'planted', 'espw1'),
    ],
    listSyncTargets: async () => [
      obj('SyncTarget', 'florin', 'inv1', { uid: uid(1) }),
      obj('SyncTarget', 'newly-inventory', 'inv2', { uid: uid(2) }),
      obj('SyncTarget', 'planted', 'espw1', { uid: uid(3) }),
    ],
  }
}
const of = (keys: { step: string; key: string }[], step: string) =>
  keys.filter((k) => k.step === step).map((k) => k.key)

describe('tenancy event keys', () => {
  it('a grant wakes every mailbox, placement and reached mailbox, never the provider spaces', async () => {
    const keys = await keysForEvent(
      { group: GROUP, resource: 'placementgrants' },
      { type: 'ADDED', object: grant(1) },
      world()
    )
    const st = (name: string, space: string, n: number) =>
      mailboxOf(obj('SyncTarget', name, space, { uid: uid(n) }))
    expect(of(keys, MAILBOX_STEP)).toEqual([st('florin', 'inv1', 1), st('x', 'inv2', 2)].sort())
    expect(of(keys, WHERE_STEP)).toEqual(['ws1/p1', 'ws2/p2'])
    expect(of(keys, SUMMARIZE_STEP)).toEqual(['ws1/p1', 'ws2/p2'])
    expect(of(keys, TRANSLATE_STEP)).toEqual(['inv1-mb-a', 'inv1-mb-b'])
  })

  it('an Inventory wakes the same; a write that moves no generation wakes nothing', async () => {
    const deps = world()
    const ref = { group: GROUP, resource: 'inventories' }
    const inv = { ...grant(1), kind: 'Inventory' }
    expect(await keysForEvent(ref, { type: 'ADDED', object: inv }, deps)).not.toEqual([])
    expect(await keysForEvent(ref, { type: 'MODIFIED', object: inv }, deps)).toEqual([])
    const next = { ...inv, metadata: { ...inv.metadata, generation: 2 } }
    expect(
      of(await keysForEvent(ref, { type: 'MODIFIED', object: next }, deps), WHERE_STEP)
    ).toEqual(['ws1/p1', 'ws2/p2'])
    expect(
      of(await keysForEvent(ref, { type: 'DELETED', object: next }, deps), WHERE_STEP)
    ).toEqual(['ws1/p1', 'ws2/p2'])
  })

  it('a relay without the SyncTarget list still wakes the where and translate keys', async () => {
    const { listSyncTargets: _omitted, ...deps } = world()
    const keys = await keysForEvent(
      { group: GROUP, resource: 'placementgrants' },
      { type: 'ADDED', object: grant(1) },
      deps
    )
    expect(of(keys, MAILBOX_STEP)).toEqual([])
    expect(of(keys, WHERE_STEP)).toEqual(['ws1/p1', 'ws2/p2'])
  })

  it('only Inventories and PlacementGrants are policy', () => {
    expect(isTenancyPolicy(GROUP, 'inventories')).toBe(true)
    expect(isTenancyPolicy(GROUP, 'placementgrants')).toBe(true)
    expect(isTenancyPolicy(GROUP, 'spacequotas')).toBe(false)
    expect(isTenancyPolicy('edge.kcp.io', 'placementgrants')).toBe(false)
  })
})
