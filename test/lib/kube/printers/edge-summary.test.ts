import { describe, expect, it } from 'vitest'
import {
  STATUS_SUMMARY_PRINTER,
  SUMMARIZER_PRINTER,
} from '../../../../lib/kube/printers/edge-summary.ts'
import type { Printer } from '../../../../lib/kube/printers/types.ts'
import type { KubeObject } from '../../../../lib/kube/types.ts'

const NOW = new Date('2025-01-01T00:02:00Z')
const obj = (body: Record<string, unknown>): KubeObject => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'X',
  metadata: { name: 'o', creationTimestamp: '2025-01-01T00:00:00Z' },
  ...(body as Record<string, never>),
})
const print = (p: Printer, body: Record<string, unknown>) => p.row(obj(body), { now: NOW }).cells
const names = (p: Printer) => p.columns.map((c) => c.name)

describe('summarization printers', () => {
  it('prints a Summarizer with its subject, group keys and aggregations', () => {
    expect(names(SUMMARIZER_PRINTER)).toEqual([
      'Name',
      'Subject',
      'Group By',
      'Aggregations',
      'Age',
    ])
    const spec = {
      subject: { group: 'apps', resource: 'deployments' },
      groupBy: [{ name: 'env', locationLabel: 'env' }],
      aggregations: [
        { name: 'n', type: 'Count' },
        { name: 'ready', type: 'Sum' },
      ],
    }
    expect(print(SUMMARIZER_PRINTER, { spec })).toEqual([
      'o',
      'deployments.apps',
      'env',
      'n=Count,ready=Sum',
      '2m',
    ])
    expect(print(SUMMARIZER_PRINTER, { spec: { aggregations: [] } })).toEqual([
      'o',
      '*',
      '<none>',
      '<none>',
      '2m',
    ])
  })

  it('prints a StatusSummary with its counts, null before the step wrote it', () => {
    expect(names(STATUS_SUMMARY_PRINTER)).toEqual([
      'Name',
      'Objects',
      'Copies',
      'Reported',
      'Stale',
      'Groups',
      'Age',
    ])
    const summary = { objects: 2, copies: 6, reported: 5, stale: 1, groups: [{}, {}] }
    expect(print(STATUS_SUMMARY_PRINTER, { summary })).toEqual(['o', 2, 6, 5, 1, 2, '2m'])
    expect(print(STATUS_SUMMARY_PRINTER, {})).toEqual(['o', null, null, null, null, null, '2m'])
  })
})
