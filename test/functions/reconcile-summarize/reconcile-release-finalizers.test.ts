/**
 * The part `releaseFinalizers` (reconcile-release-finalizers.ts) over plain inputs: which objects
 * lose the edge-removal finalizer, which wait, and how soon it asks to run again.
 */
import { describe, expect, it } from 'vitest'
import { releaseFinalizersPart } from '../../../functions/reconcile-summarize/reconcile-release-finalizers.ts'
import { objectKey } from '../../../functions/reconcile-summarize/scope.ts'
import type { SourceObject } from '../../../lib/placement/types.ts'
import { configMap, dest, noRemovals, noUnknowns, recorder, runInput } from './part-fixtures.ts'

const FINALIZER = 'edge.kcp.io/edge-removal'
const placed = configMap('placed', { finalizers: [FINALIZER] })
const unplaced = configMap('unplaced', { finalizers: [FINALIZER] })
const waiting = configMap('waiting', { finalizers: [FINALIZER] })
const terminating: SourceObject = {
  ...configMap('terminating', { finalizers: [FINALIZER] }),
}
terminating.object.metadata.deletionTimestamp = '2026-12-01T11:00:00Z'
const plain = configMap('plain')

type Case = {
  name: string
  /** Some mailbox still holds a copy of these. */
  held?: SourceObject[]
  pendingLive?: boolean
  hold?: boolean
  /** The writer answers false (the object moved) for these. */
  moved?: string[]
  want: { released: string[]; done: string[]; requeueAfterMs?: number }
}

const cases: Case[] = [
  {
    name: 'lifts it from objects placed nowhere or terminating, nothing left anywhere',
    want: {
      released: ['unplaced', 'waiting', 'terminating'],
      done: ['finalizers released 3'],
    },
  },
  {
    name: 'an object some mailbox still holds waits; the run looks again in 30 s',
    held: [waiting],
    want: {
      released: ['unplaced', 'terminating'],
      done: ['finalizers released 2'],
      requeueAfterMs: 30_000,
    },
  },
  {
    name: 'removals pending at a live edge: again in 5 s',
    held: [waiting],
    pendingLive: true,
    moved: ['unplaced', 'terminating'],
    want: { released: ['unplaced', 'terminating'], done: [], requeueAfterMs: 5_000 },
  },
  {
    name: 'a placement of the space is unknown: none is lifted',
    hold: true,
    want: { released: [], done: [] },
  },
]

describe('releaseFinalizers', () => {
  it.each(cases)('$name', async (c) => {
    const releases = recorder(
      async (_s: string, o: SourceObject) => !c.moved?.includes(o.object.metadata.name ?? '')
    )
    const part = releaseFinalizersPart({ release: releases.fn })
    const held = new Set((c.held ?? []).map(objectKey))
    const input = await runInput(
      { objects: [placed], destinations: [dest('e1')], held: {} },
      {
        extra: [unplaced, waiting, terminating, plain],
        removals: noRemovals({ holds: (k) => held.has(k), pendingLive: c.pendingLive ?? false }),
        unknown: noUnknowns({ holdLifting: c.hold ?? false }),
      }
    )
    const r = await part.run(input)
    expect(releases.calls.map(([, o]) => o.object.metadata.name)).toEqual(c.want.released)
    const { released: _, ...want } = c.want
    expect(r).toEqual(want)
  })
})
