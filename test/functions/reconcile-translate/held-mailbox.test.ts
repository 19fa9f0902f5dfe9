/**
 * Which unknown placements hold a mailbox (functions/reconcile-translate/held-mailbox.ts), over a
 * snapshot that answers from tables (the step's snapshot is an injected dependency; the hub-backed
 * cases are in invalid-stored.test.ts): a live copy sourced from an unknown placement holds it, one
 * sourced from a placement translate sees here reads nothing, a tombstone holds nothing, and a
 * copy with no recorded sources holds it only while some slice does not decode (Namespaces and the
 * SyncerConfig, which never leave, do not count).
 */
import { describe, expect, it } from 'vitest'
import type { PlacementSelection } from '../../../functions/reconcile-translate/desired.ts'
import { holdingPlacements } from '../../../functions/reconcile-translate/held-mailbox.ts'
import type { DecodeProblem } from '../../../lib/apis/decode.ts'
import type { Snapshot } from '../../../lib/placement/snapshot.ts'
import type { ManifestEntry } from '../../../lib/store/projection-types.ts'

const problem = (key: string, kind = 'EdgePlacement'): DecodeProblem => ({
  object: { apiVersion: 'edge.kcp.io/v1alpha1', kind, metadata: { name: key.split('/')[1] } },
  key,
  issues: [{ path: 'spec', message: 'broken' }],
})

/** A snapshot over tables; `asked` records the placements looked up. */
function tableSnapshot(at: {
  unknown?: Record<string, DecodeProblem>
  invalidSlices?: DecodeProblem[]
}) {
  const asked: string[] = []
  const unused = () => Promise.reject(new Error('not read by holdingPlacements'))
  const snapshot: Snapshot = {
    mailboxSpace: unused,
    placementsFor: unused,
    invalidPlacementsFor: async () => [],
    async unknownPlacement(spaceId, name) {
      asked.push(`${spaceId}/${name}`)
      return at.unknown?.[`${spaceId}/${name}`]
    },
    invalidSlices: async () => at.invalidSlices ?? [],
    meetingDestinations: unused,
    space: unused,
    registry: unused,
    customizers: unused,
    locations: unused,
    location: unused,
    tenancy: unused,
    grantOf: unused,
  }
  return { snapshot, asked }
}

const entry = (
  resource: string,
  name: string,
  more: Partial<ManifestEntry> = {}
): ManifestEntry => ({
  group: resource === 'syncerconfigs' ? 'edge.kcp.io' : '',
  version: 'v1',
  resource,
  namespace: resource === 'configmaps' ? 'app' : '',
  name,
  hash: 'h',
  specHash: 's',
  rv: 1,
  uid: `u-${name}`,
  created: '2026-01-01T00:00:00Z',
  generation: 1,
  ...more,
})

const manifest = (entries: ManifestEntry[]) => ({ mailbox: 'mb', version: 3, entries })
const dest = { inventorySpaceId: 'inv', syncTargetUid: 'st' }
const chosen = (spaceId: string, name: string) =>
  ({ ref: { spaceId, placement: { metadata: { name } } } }) as unknown as PlacementSelection

describe('holdingPlacements', () => {
  it('holds a mailbox with a live copy sourced from an unknown placement', async () => {
    const { snapshot, asked } = tableSnapshot({ unknown: { 'ws/bad': problem('ws/bad') } })
    const current = manifest([
      entry('configmaps', 'a', { sources: [{ space: 'ws', placements: ['bad', 'good'] }] }),
    ])
    const held = await holdingPlacements(snapshot, dest, {
      chosen: [chosen('ws', 'good')],
      current,
    })
    expect(held.map((p) => p.key)).toEqual(['ws/bad'])
    expect(asked).toEqual(['ws/bad'])
  })

  it('reads nothing for sources it sees, and ignores tombstones', async () => {
    const { snapshot, asked } = tableSnapshot({ unknown: { 'ws/bad': problem('ws/bad') } })
    const current = manifest([
      entry('configmaps', 'a', { sources: [{ space: 'ws', placements: ['good'] }] }),
      entry('configmaps', 'b', {
        removing: '2026-01-01T00:00:00Z',
        sources: [{ space: 'ws', placements: ['bad'] }],
      }),
    ])
    expect(
      await holdingPlacements(snapshot, dest, { chosen: [chosen('ws', 'good')], current })
    ).toEqual([])
    expect(asked).toEqual([])
  })

  it('holds a copy without sources only while some slice does not decode', async () => {
    const slice = problem('ws/other', 'SinglePlacementSlice')
    const bare = manifest([entry('configmaps', 'old')])
    const fixed = manifest([entry('namespaces', 'app'), entry('syncerconfigs', 'the-one')])
    const broken = tableSnapshot({ invalidSlices: [slice] }).snapshot
    const fine = tableSnapshot({}).snapshot
    const at = (current: ReturnType<typeof manifest>) => ({ chosen: [], current })
    expect(await holdingPlacements(broken, dest, at(bare))).toEqual([slice])
    expect(await holdingPlacements(fine, dest, at(bare))).toEqual([])
    expect(await holdingPlacements(broken, dest, at(fixed))).toEqual([])
  })
})
