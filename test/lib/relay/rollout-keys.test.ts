/**
 * The rollout step's keys as the relay maps events (lib/relay/rollout-keys.ts through
 * event-keys.ts): a Rollout wakes itself and its space's other Rollouts on a new uid, generation
 * or deletion but not on its own status writes, and wakes its space's mailboxes when what translation holds by moved
 * (a promotion only the promoted wave's, as the Location labels the relay saw place them); a
 * workload object of a space with Rollouts wakes them when its translate input moved; a slice of
 * that space, a placement's summary there (the summarize step's standings moved with it) and any
 * Location wake them; a space without Rollouts wakes none. The step names and
 * key format agree with the Worker's.
 */
import { describe, expect, it } from 'vitest'
import { ROLLOUT_STEP as WORKER_ROLLOUT_STEP } from '../../../functions/reconcile-rollout/names.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { type EventKeysDeps, keysForEvent } from '../../../lib/relay/event-keys.ts'
import { createRolloutIndex, ROLLOUT_STEP } from '../../../lib/relay/rollout-keys.ts'
import { createSliceIndex } from '../../../lib/relay/slice-index.ts'

const EDGE = 'edge.kcp.io'
const ROLLOUTS = { group: EDGE, resource: 'rollouts' }
const SLICES = { group: EDGE, resource: 'singleplacementslices' }
const LOCATIONS = { group: EDGE, resource: 'locations' }
const CONFIGMAPS = { group: '', resource: 'configmaps' }
const PLACEMENTS = { group: EDGE, resource: 'edgeplacements' }
const MB = 'inv1-mb-0a1b2c3d-1111-2222-3333-000000000001'

const at = (cluster: string) => ({ annotations: { 'kcp.io/cluster': cluster } })
const rollout = (name: string, generation: number, status: Record<string, unknown> = {}) =>
  ({
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'Rollout',
    metadata: { name, uid: `u-${name}`, generation, ...at('ws1') },
    spec: { waves: [{ name: 'all' }] },
    status,
  }) as unknown as KubeObject
const cm = (cluster: string, a: string, rv: string) =>
  ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'c', namespace: 'shop', resourceVersion: rv, ...at(cluster) },
    data: { a },
  }) as KubeObject
const slice = (cluster: string) =>
  ({
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'SinglePlacementSlice',
    metadata: { name: 'p', ...at(cluster) },
    destinations: [
      {
        cluster: 'inv1',
        locationName: 'loc',
        syncTargetName: 'st1',
        syncTargetUID: '0a1b2c3d-1111-2222-3333-000000000001',
      },
    ],
  }) as unknown as KubeObject

function deps(): EventKeysDeps {
  return {
    espwSpaceId: 'espw1',
    index: createSliceIndex(),
    listEdgePlacements: async () => [],
    rollouts: createRolloutIndex(),
    sources: new Map(),
  }
}
const keys = async (
  d: EventKeysDeps,
  ref: { group: string; resource: string },
  type: string,
  o: KubeObject
) => (await keysForEvent(ref, { type, object: o }, d)).map((k) => `${k.step} ${k.key}`)

describe('rollout keys', () => {
  it('use the step name and key format of the Worker', () => {
    expect(ROLLOUT_STEP).toBe(WORKER_ROLLOUT_STEP)
  })

  it('wake a Rollout on a new generation, not on its own status writes', async () => {
    const d = deps()
    expect(await keys(d, ROLLOUTS, 'ADDED', rollout('r', 1))).toContain('rollout ws1/r')
    const counts = { waves: [{ name: 'all', revision: 1, ready: 3 }], revision: 1 }
    const written = await keys(d, ROLLOUTS, 'MODIFIED', rollout('r', 1, counts))
    expect(written.filter((k) => k.startsWith('rollout'))).toEqual([])
    const recounted = { ...counts, waves: [{ name: 'all', revision: 1, ready: 4 }] }
    expect(await keys(d, ROLLOUTS, 'MODIFIED', rollout('r', 1, recounted))).toEqual([])
    expect(await keys(d, ROLLOUTS, 'MODIFIED', rollout('r', 2, recounted))).toContain(
      'rollout ws1/r'
    )
    expect(await keys(d, ROLLOUTS, 'DELETED', rollout('r', 2, recounted))).toContain(
      'rollout ws1/r'
    )
  })

  it("wake the space's other Rollouts when one is created, changed or deleted", async () => {
    const d = deps()
    await keys(d, ROLLOUTS, 'ADDED', rollout('a', 1))
    const rollouts = (ks: string[]) => ks.filter((k) => k.startsWith('rollout')).sort()
    expect(rollouts(await keys(d, ROLLOUTS, 'ADDED', rollout('b', 1)))).toEqual([
      'rollout ws1/a',
      'rollout ws1/b',
    ])
    expect(rollouts(await keys(d, ROLLOUTS, 'MODIFIED', rollout('b', 1, { revision: 1 })))).toEqual(
      []
    )
    expect(rollouts(await keys(d, ROLLOUTS, 'MODIFIED', rollout('b', 2)))).toEqual([
      'rollout ws1/a',
      'rollout ws1/b',
    ])
    expect(rollouts(await keys(d, ROLLOUTS, 'DELETED', rollout('a', 1)))).toEqual([
      'rollout ws1/a',
      'rollout ws1/b',
    ])
  })

  it('wake the mailboxes of the space when a wave is promoted or rolled back', async () => {
    const d = deps()
    await keys(d, SLICES, 'ADDED', slice('ws1'))
    await keys(d, ROLLOUTS, 'ADDED', rollout('r', 1, { revision: 1 }))
    const promoted = { revision: 2, waves: [{ name: 'all', revision: 2, cut: 1, ready: 0 }] }
    expect(await keys(d, ROLLOUTS, 'MODIFIED', rollout('r', 1, promoted))).toEqual([
      `translate ${MB}`,
    ])
    const counted = { ...promoted, waves: [{ name: 'all', revision: 2, cut: 1, ready: 1 }] }
    expect(await keys(d, ROLLOUTS, 'MODIFIED', rollout('r', 1, counted))).toEqual([])
  })

  it('wake the Rollouts of a space when a governed object or a slice there moves', async () => {
    const d = deps()
    await keys(d, ROLLOUTS, 'ADDED', rollout('b', 1))
    await keys(d, ROLLOUTS, 'ADDED', rollout('a', 1))
    expect(await keys(d, CONFIGMAPS, 'ADDED', cm('ws1', '1', '10'))).toEqual([
      'rollout ws1/a',
      'rollout ws1/b',
    ])
    expect(await keys(d, CONFIGMAPS, 'MODIFIED', cm('ws1', '1', '11'))).toEqual([])
    expect(await keys(d, CONFIGMAPS, 'MODIFIED', cm('ws1', '2', '12'))).toContain('rollout ws1/a')
    expect(await keys(d, CONFIGMAPS, 'ADDED', cm('ws2', '1', '13'))).toEqual([])
    // The status the edges return is no governed content: it wakes no Rollout.
    const reported = { ...cm('ws1', '2', '14'), status: { observed: 'at the edges' } } as KubeObject
    const woken = await keys(d, CONFIGMAPS, 'MODIFIED', reported)
    expect(woken.filter((k) => k.startsWith('rollout'))).toEqual([])
    expect(await keys(d, SLICES, 'ADDED', slice('ws1'))).toEqual(
      expect.arrayContaining(['rollout ws1/a', 'rollout ws1/b'])
    )
    const loc = {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'Location',
      metadata: { name: 'loc', ...at('inv1') },
    }
    expect(await keys(d, LOCATIONS, 'MODIFIED', loc as KubeObject)).toEqual(
      expect.arrayContaining(['rollout ws1/a', 'rollout ws1/b'])
    )
    await keys(d, ROLLOUTS, 'DELETED', rollout('a', 1))
    await keys(d, ROLLOUTS, 'DELETED', rollout('b', 1))
    const after = await keys(d, CONFIGMAPS, 'MODIFIED', cm('ws1', '3', '14'))
    expect(after.filter((k) => k.startsWith('rollout'))).toEqual([])
  })

  it('wake the Rollouts of a space when a placement’s summary there moves (its edges’ revisions)', async () => {
    const d = deps()
    await keys(d, ROLLOUTS, 'ADDED', rollout('shop', 1))
    const placement = (revision: number, cluster = 'ws1') =>
      ({
        apiVersion: 'edge.kcp.io/v1alpha1',
        kind: 'EdgePlacement',
        metadata: { name: 'p', generation: 1, ...at(cluster) },
        spec: { locationSelectors: [{}] },
        status: {
          summary: { rollouts: [{ name: 'shop', revisions: [{ revision, destinations: 3 }] }] },
        },
      }) as unknown as KubeObject
    const rolloutsOf = async (o: KubeObject) =>
      (await keys(d, PLACEMENTS, 'MODIFIED', o)).filter((k) => k.startsWith('rollout'))
    await keys(d, PLACEMENTS, 'ADDED', placement(1))
    expect(await rolloutsOf(placement(1))).toEqual([])
    expect(await rolloutsOf(placement(2))).toEqual(['rollout ws1/shop'])
    expect(await rolloutsOf(placement(3, 'ws2'))).toEqual([])
  })

  it("wake only the promoted wave's mailboxes, all of them on a spec change, and those of unknown Locations", async () => {
    const d = deps()
    const uid = (n: number) => `0a1b2c3d-1111-2222-3333-00000000000${n}`
    const mb = (n: number) => `inv1-mb-${uid(n)}`
    const dest = (n: number) => ({
      cluster: 'inv1',
      locationName: `loc${n}`,
      syncTargetName: `st${n}`,
      syncTargetUID: uid(n),
    })
    const fleet = {
      ...slice('ws1'),
      destinations: [1, 2, 3, 4].map(dest),
    } as unknown as KubeObject
    const location = (n: number, ring: string) =>
      ({
        apiVersion: 'edge.kcp.io/v1alpha1',
        kind: 'Location',
        metadata: { name: `loc${n}`, labels: { ring }, ...at('inv1') },
      }) as unknown as KubeObject
    await keys(d, LOCATIONS, 'ADDED', location(1, 'canary'))
    await keys(d, LOCATIONS, 'ADDED', location(2, 'canary'))
    await keys(d, LOCATIONS, 'ADDED', location(3, 'prod'))
    await keys(d, SLICES, 'ADDED', fleet)
    const waves = [
      { name: 'canary', locationSelectors: [{ matchLabels: { ring: 'canary' } }] },
      { name: 'rest' },
    ]
    const staged = (generation: number, status: Record<string, unknown>) =>
      ({ ...rollout('r', generation, status), spec: { waves } }) as unknown as KubeObject
    const counts = { edges: 2, ready: 2, failed: 0, stale: 0, pending: 0 }
    const done = {
      revision: 1,
      completedRevision: 1,
      waves: [
        { name: 'canary', revision: 1, cut: 1, ...counts },
        { name: 'rest', revision: 1, cut: 1, ...counts },
      ],
    }
    const translated = async (o: KubeObject) =>
      (await keys(d, ROLLOUTS, 'MODIFIED', o)).filter((k) => k.startsWith('translate')).sort()
    expect(await keys(d, ROLLOUTS, 'ADDED', staged(1, done))).toEqual(
      expect.arrayContaining([1, 2, 3, 4].map((n) => `translate ${mb(n)}`))
    )
    const canary = {
      ...done,
      revision: 2,
      waves: [{ name: 'canary', revision: 2, from: 1, cut: 1, ...counts }, done.waves[1]],
    }
    // loc4 has sent no event: its edge's wave cannot be told, so it is woken too
    expect(await translated(staged(1, canary))).toEqual([
      `translate ${mb(1)}`,
      `translate ${mb(2)}`,
      `translate ${mb(4)}`,
    ])
    await keys(d, LOCATIONS, 'ADDED', location(4, 'prod'))
    const rest = {
      ...canary,
      waves: [canary.waves[0], { name: 'rest', revision: 2, from: 1, cut: 1, ...counts }],
    }
    expect(await translated(staged(1, rest))).toEqual([`translate ${mb(3)}`, `translate ${mb(4)}`])
    expect(await translated(staged(2, rest))).toEqual([1, 2, 3, 4].map((n) => `translate ${mb(n)}`))
  })
})
