/**
 * Summarizer aggregation over copies, table-driven: each aggregation type, Count with a path,
 * group keys from a JSONPath (one, none and several values) and from a Location label, the
 * staleness threshold, pending and failed copies counted apart, and the bound on groups.
 */
import { describe, expect, it } from 'vitest'
import type { SummarizerSpec } from '../../../lib/apis/edge-summary.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import type { ManifestEntry } from '../../../lib/store/projection-types.ts'
import { type SummarizedCopy, summarize } from '../../../lib/summarize/aggregate.ts'

const NOW = Date.parse('2025-01-01T00:10:00Z')
const entry: ManifestEntry = {
  ...{ group: 'apps', version: 'v1', resource: 'deployments', namespace: 'ns', name: 'd' },
  ...{ hash: 'h', specHash: 's', rv: 1, uid: 'u', created: '', generation: 1 },
}
const body = (image: string): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'ConfigMap',
  metadata: { name: 'd', namespace: 'ns' },
  spec: { image, ports: [80, 443] },
})

/** A copy reported with `status`, at a destination labelled env=`env`, heartbeat `ago` s. */
function copy(env: string, status: Record<string, unknown>, ago = 0, image = 'a'): SummarizedCopy {
  return {
    beatAt: NOW - ago * 1000,
    entry,
    state: { uid: 'u', rv: 1, status: status as never, observedGeneration: 1 },
    body: body(image),
    locationLabels: { env },
  }
}
const pending: SummarizedCopy = { ...copy('prod', {}), state: undefined } as SummarizedCopy
const failed: SummarizedCopy = {
  ...copy('prod', {}),
  state: { uid: 'u', rv: 1, status: {}, problem: { reason: 'ApplyFailed', message: 'x' } },
}

const COPIES = [
  copy('prod', { n: 1 }),
  copy('prod', { n: 5 }),
  copy('dev', { n: 2 }),
  copy('dev', {}, 0, 'b'),
]

type Row = [string, Partial<SummarizerSpec>, SummarizedCopy[], unknown]
const rows: Row[] = [
  ['Count', {}, COPIES, [{ groupedBy: [], count: 4, aggregates: [{ name: 'x', value: 4 }] }]],
  [
    'Sum, Min, Max over a path (missing values ignored)',
    {
      aggregations: [
        { name: 's', type: 'Sum', jsonPath: '$.status.n' },
        { name: 'lo', type: 'Min', jsonPath: '$.status.n' },
        { name: 'hi', type: 'Max', jsonPath: '$.status.n' },
        { name: 'c', type: 'Count', jsonPath: '$.status.n' },
      ],
    },
    COPIES,
    [
      {
        groupedBy: [],
        count: 4,
        aggregates: [
          { name: 's', value: 8 },
          { name: 'lo', value: 1 },
          { name: 'hi', value: 5 },
          { name: 'c', value: 3 },
        ],
      },
    ],
  ],
  [
    'Min and Max of nothing have no value, Sum is 0',
    {
      aggregations: [
        { name: 's', type: 'Sum', jsonPath: '$.status.none' },
        { name: 'lo', type: 'Min', jsonPath: '$.status.none' },
      ],
    },
    [copy('prod', {})],
    [{ groupedBy: [], count: 1, aggregates: [{ name: 's', value: 0 }, { name: 'lo' }] }],
  ],
  [
    'group by a Location label',
    { groupBy: [{ name: 'env', locationLabel: 'env' }] },
    COPIES,
    [
      {
        groupedBy: [{ name: 'env', value: 'dev' }],
        count: 2,
        aggregates: [{ name: 'x', value: 2 }],
      },
      {
        groupedBy: [{ name: 'env', value: 'prod' }],
        count: 2,
        aggregates: [{ name: 'x', value: 2 }],
      },
    ],
  ],
  [
    'group by a JSONPath: one value, JSON of a number, none, several',
    {
      groupBy: [
        { name: 'image', jsonPath: '$.spec.image' },
        { name: 'n', jsonPath: '$.status.n' },
        { name: 'ports', jsonPath: '$.spec.ports[*]' },
      ],
    },
    [copy('prod', { n: 1 }), copy('dev', {}, 0, 'b')],
    [
      {
        groupedBy: [
          { name: 'image', value: 'a' },
          { name: 'n', value: '1' },
          { name: 'ports', value: '[80,443]' },
        ],
        count: 1,
        aggregates: [{ name: 'x', value: 1 }],
      },
      {
        groupedBy: [
          { name: 'image', value: 'b' },
          { name: 'n' },
          { name: 'ports', value: '[80,443]' },
        ],
        count: 1,
        aggregates: [{ name: 'x', value: 1 }],
      },
    ],
  ],
]

describe('summarize', () => {
  it.each(rows)('%s', (_name, spec, copies, groups) => {
    const full = { aggregations: [{ name: 'x', type: 'Count' as const }], ...spec }
    const out = summarize(full, copies, NOW)
    expect(out.groups).toEqual(groups)
    expect(out.copies).toBe(copies.length)
  })

  it('counts stale (past its own threshold), pending and failed copies apart', () => {
    const spec: SummarizerSpec = {
      stalenessThresholdSeconds: 60,
      aggregations: [{ name: 'x', type: 'Count' }],
    }
    const out = summarize(spec, [copy('prod', {}, 30), copy('prod', {}, 90), pending, failed], NOW)
    expect(out).toMatchObject({ copies: 4, reported: 1, stale: 1, pending: 1, failed: 1 })
    expect(
      summarize({ ...spec, stalenessThresholdSeconds: 600 }, [copy('p', {}, 90)], NOW).stale
    ).toBe(0)
    expect(summarize({ aggregations: spec.aggregations }, [copy('p', {}, 200)], NOW).stale).toBe(1)
  })

  it('without a threshold of its own, counts stale by the hub’s configured one', () => {
    const spec: SummarizerSpec = { aggregations: [{ name: 'x', type: 'Count' }] }
    const copies = [copy('p', {}, 20), copy('p', {}, 90)]
    expect(summarize(spec, copies, NOW).stale).toBe(0)
    expect(summarize(spec, copies, NOW, 30_000)).toMatchObject({ stale: 1, reported: 1 })
    expect(summarize({ ...spec, stalenessThresholdSeconds: 600 }, copies, NOW, 30_000).stale).toBe(
      0
    )
  })

  it('lists at most 100 groups and counts the rest', () => {
    const many = Array.from({ length: 120 }, (_, i) => copy(`e${String(i).padStart(3, '0')}`, {}))
    const out = summarize(
      {
        groupBy: [{ name: 'env', locationLabel: 'env' }],
        aggregations: [{ name: 'x', type: 'Count' }],
      },
      many,
      NOW
    )
    expect(out.groups).toHaveLength(100)
    expect(out.groupsOmitted).toBe(20)
    expect(out.reported).toBe(120)
  })
})
