/**
 * The part `staleness` (reconcile-staleness.ts): when a run asks to be run again for destinations
 * turning stale or coming back unseen, from their last heartbeats alone.
 */

import { describe, expect, it } from 'vitest'
import { stalenessPart } from '../../../functions/reconcile-summarize/reconcile-staleness.ts'
import type { HandledSummarizer } from '../../../functions/reconcile-summarize/scope.ts'
import { HEARTBEAT_MS } from '../../../lib/edge/protocol.ts'
import type { Destination } from '../../../lib/placement/destinations.ts'
import { DEFAULT_LIVENESS, livenessRule, STALE_AFTER_MS } from '../../../lib/summarize/liveness.ts'
import { dest, NOW } from './part-fixtures.ts'

/** The staleness threshold in seconds. */
const T = STALE_AFTER_MS / 1000

const summarizer = (seconds: number): HandledSummarizer => ({
  summarizer: { apiVersion: 'edge.kcp.io/v1alpha1', kind: 'Summarizer', metadata: { name: 's' } },
  spec: { aggregations: [], stalenessThresholdSeconds: seconds } as never,
  matched: [],
})

type Case = {
  name: string
  /** Seconds since each destination's last heartbeat (undefined: never). */
  ago: (number | undefined)[]
  summarizers?: HandledSummarizer[]
  /** The hub's staleness threshold, seconds (default: the default rule). */
  staleAfter?: number
  want: number | undefined
}

const cases: Case[] = [
  { name: 'no destination: no need', ago: [], want: undefined },
  {
    name: 'the hub’s configured threshold, not the default',
    ago: [10],
    staleAfter: 90,
    want: 81_000,
  },
  {
    name: 'a live edge: a second past its turning stale',
    ago: [60],
    want: STALE_AFTER_MS - 59_000,
  },
  { name: 'the soonest of several', ago: [10, 100], want: STALE_AFTER_MS - 99_000 },
  { name: 'never sooner than 30 s', ago: [T - 10], want: 30_000 },
  {
    name: 'a Summarizer’s shorter threshold counts too',
    ago: [60],
    summarizers: [summarizer(100)],
    want: 41_000,
  },
  {
    name: 'stale recently: a heartbeat period, it may come back unseen',
    ago: [T + 20],
    want: HEARTBEAT_MS,
  },
  {
    name: 'stale for an hour, or never heard from: no need',
    ago: [10 * T, undefined],
    want: undefined,
  },
]

describe('staleness', () => {
  it.each(cases)('$name', async (c) => {
    const observed = c.ago.map((_, i) => dest(`e${i}`))
    const beats = new Map<Destination, number | undefined>(
      observed.map((d, i) => [d, c.ago[i] === undefined ? undefined : NOW - c.ago[i]! * 1000])
    )
    const r = await stalenessPart.run({
      observed,
      nowMs: NOW,
      rule: c.staleAfter === undefined ? DEFAULT_LIVENESS : livenessRule(c.staleAfter),
      seen: {
        destination: (d) => ({
          destination: d,
          mailbox: '',
          locationLabels: {},
          ...(beats.get(d) !== undefined ? { beatAt: beats.get(d) as number } : {}),
        }),
      },
      scope: { summarizers: c.summarizers ?? [] },
    })
    expect(r).toEqual(c.want === undefined ? { done: [] } : { done: [], requeueAfterMs: c.want })
  })
})
