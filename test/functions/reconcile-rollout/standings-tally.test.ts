/**
 * The rollout step's tally over the summarize step's standings
 * (functions/reconcile-rollout/standings-tally.ts), stored on dynalite: per wave the edges ready,
 * failed (with the failure), stale and pending at a revision, several placements folded per edge,
 * another Rollout's and another space's standings ignored, and a failed read thrown.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { standingsTally } from '../../../functions/reconcile-rollout/standings-tally.ts'
import type { RolloutEdge, TallyInput } from '../../../functions/reconcile-rollout/tally.ts'
import { mailboxName } from '../../../lib/reconcile/keys.ts'
import type { Standing } from '../../../lib/rollout/standing.ts'
import { type Standings, writeStandings } from '../../../lib/rollout/standing-store.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'

let t: TestStore
let failing = false
beforeAll(async () => {
  t = await createTestStore({
    fault: ({ op, phase }) => {
      if (failing && op === 'Query' && phase === 'before') throw new Error('store down')
    },
  })
})
afterAll(() => t?.close())

const edge = (name: string): RolloutEdge => ({
  cluster: 'imw-1',
  syncTargetName: name,
  syncTargetUid: `uid-${name}`,
  labels: {},
})
const mb = (name: string) => mailboxName('imw-1', `uid-${name}`)
const page = (rows: Record<string, Record<string, Standing>>): Standings =>
  new Map(Object.entries(rows).map(([e, row]) => [mb(e), new Map(Object.entries(row))]))

const input = (spaceId: string, revision: number): TallyInput => ({
  spaceId,
  rollout: {
    name: 'shop',
    uid: 'u',
    spec: { waves: [] } as unknown as TallyInput['rollout']['spec'],
  },
  revision,
  waves: [
    { name: 'canary', edges: [edge('c1'), edge('c2'), edge('c3')] },
    { name: 'rest', edges: [edge('r1'), edge('r2'), edge('r3')] },
  ],
})

describe('standingsTally', () => {
  beforeAll(async () => {
    await writeStandings(
      t.kv,
      'ws/a',
      page({
        c1: {
          shop: { revision: 3, state: 'ready' },
          cart: { revision: 9, state: 'failed', reason: 'X' },
        },
        c2: { shop: { revision: 3, state: 'failed', reason: 'ErrImagePull', message: 'no image' } },
        c3: { shop: { revision: 3, state: 'stale' } },
        r1: { shop: { revision: 2, state: 'ready' } },
        r2: { shop: { revision: 2, state: 'failed', reason: 'CrashLoopBackOff' } },
      })
    )
    // A second placement reaching r1 and c1: r1 has a copy still at revision 1 there.
    await writeStandings(
      t.kv,
      'ws/b',
      page({
        r1: { shop: { revision: 1, state: 'ready' } },
        c1: { shop: { revision: 3, state: 'ready' } },
      })
    )
    await writeStandings(t.kv, 'other/a', page({ r3: { shop: { revision: 3, state: 'ready' } } }))
  })

  it('counts each wave at the revision asked', async () => {
    const [canary, rest] = await standingsTally(t.kv)(input('ws', 3))
    expect(canary?.(3, 1)).toEqual({
      edges: 3,
      ready: 1,
      failed: 1,
      stale: 1,
      pending: 0,
      failures: [
        { cluster: 'imw-1', syncTarget: 'c2', reason: 'ErrImagePull', message: 'no image' },
      ],
    })
    // At 3 the rest wave's edges hold older revisions: a failure at 2 is still pending for 3.
    expect(rest?.(3, 1)).toEqual({ edges: 3, ready: 0, failed: 0, stale: 0, pending: 3 })
  })

  it('counts a wave held at an older revision at that revision, placements folded per edge', async () => {
    const [, rest] = await standingsTally(t.kv)(input('ws', 3))
    expect(rest?.(2, 1)).toMatchObject({ edges: 3, ready: 0, failed: 1, pending: 2 })
    expect(rest?.(1, 1)).toMatchObject({ edges: 3, ready: 1, failed: 1, pending: 1 })
  })

  it('counts standings above the revision in flight pending (not this Rollout)', async () => {
    const [canary] = await standingsTally(t.kv)(input('ws', 2))
    expect(canary?.(2, 1)).toMatchObject({ ready: 0, failed: 0, stale: 1, pending: 2 })
  })

  it('throws when the standings cannot be read', async () => {
    failing = true
    try {
      await expect(standingsTally(t.kv)(input('ws', 3))).rejects.toThrow('store down')
    } finally {
      failing = false
    }
  })
})
