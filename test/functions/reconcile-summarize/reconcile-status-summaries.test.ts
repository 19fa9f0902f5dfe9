/**
 * The part `statusSummaries` (reconcile-status-summaries.ts): each Summarizer the key handles gets
 * its results over the copies of the objects it selects; one that does not parse is skipped.
 */
import { describe, expect, it } from 'vitest'
import { statusSummariesPart } from '../../../functions/reconcile-summarize/reconcile-status-summaries.ts'
import type { HandledSummarizer } from '../../../functions/reconcile-summarize/scope.ts'
import type { SummaryResult } from '../../../lib/apis/edge-summary.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { configMap, dest, recorder, runInput, type Table } from './part-fixtures.ts'

const a = configMap('a')
const b = configMap('b')
const table: Table = {
  objects: [a, b],
  destinations: [dest('e1'), dest('e2')],
  held: { a: { e1: { status: {} }, e2: { status: {} } }, b: { e1: { status: {} } } },
  stale: ['e2'],
}

const summarizer = (name: string, spec: unknown): KubeObject => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'Summarizer',
  metadata: { name, namespace: 'app', generation: 3 },
  spec: spec as KubeObject['spec'],
})
const counting = summarizer('count', {
  groupBy: [{ name: 'loc', locationLabel: 'loc' }],
  aggregations: [{ name: 'n', type: 'Count' }],
})
const broken = summarizer('broken', { aggregations: 'not a list' })
const handled = (s: KubeObject, matched = [a, b]): HandledSummarizer => ({ summarizer: s, matched })

type Case = {
  name: string
  summarizers: HandledSummarizer[]
  /** The writer's answer: it wrote (true) or found the summary holding. */
  wrote: boolean
  want: { done: string[]; written: [string, Partial<SummaryResult>][]; skipped: string[] }
}

const cases: Case[] = [
  {
    name: 'no Summarizer: nothing',
    summarizers: [],
    wrote: true,
    want: { done: [], written: [], skipped: [] },
  },
  {
    name: 'results over every copy: reported ones grouped, the stale edge’s apart',
    summarizers: [handled(counting)],
    wrote: true,
    want: {
      done: ['summaries 1'],
      written: [
        [
          'count',
          {
            summarizerGeneration: 3,
            objects: 2,
            copies: 4,
            reported: 2,
            stale: 2,
            groups: [
              {
                groupedBy: [{ name: 'loc', value: 'e1' }],
                count: 2,
                aggregates: [{ name: 'n', value: 2 }],
              },
            ],
          },
        ],
      ],
      skipped: [],
    },
  },
  {
    name: 'an unchanged summary is not counted; an invalid spec is skipped',
    summarizers: [handled(broken), handled(counting, [b])],
    wrote: false,
    want: { done: [], written: [['count', { objects: 1, copies: 2 }]], skipped: ['broken'] },
  },
]

describe('statusSummaries', () => {
  it.each(cases)('$name', async (c) => {
    const writes = recorder(async (_s: string, _h: KubeObject, _r: SummaryResult) => c.wrote)
    const skips = recorder((_s: string, _h: KubeObject) => {})
    const part = statusSummariesPart({ write: writes.fn, skip: skips.fn })
    const input = await runInput(table)
    const r = await part.run({ ...input, scope: { ...input.scope, summarizers: c.summarizers } })
    expect(r).toEqual({ done: c.want.done })
    expect(writes.calls.map(([, h, res]) => [h.metadata.name, res])).toEqual(
      c.want.written.map(([name, res]) => [name, expect.objectContaining(res)])
    )
    expect(skips.calls.map(([, h]) => h.metadata.name)).toEqual(c.want.skipped)
  })
})

describe('statusSummaries and the hub’s staleness threshold', () => {
  it('a Summarizer without its own threshold counts stale by the one the hub is configured with', async () => {
    const writes = recorder(async (_s: string, _h: KubeObject, _r: SummaryResult) => true)
    const part = statusSummariesPart({ write: writes.fn, skip: () => {} })
    // e1 was heard a minute ago: live by the default rule, stale past a 30 s threshold.
    const input = await runInput(table, { rule: { heartbeatMs: 10_000, staleAfterMs: 30_000 } })
    await part.run({ ...input, scope: { ...input.scope, summarizers: [handled(counting)] } })
    expect(writes.calls.map(([, , res]) => res)).toEqual([
      expect.objectContaining({ copies: 4, reported: 0, stale: 4 }),
    ])
  })
})
