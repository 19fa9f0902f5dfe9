/**
 * mergeConditions (lib/summarize/multi-edge-conditions.ts), rule by rule: any False, True only
 * everywhere, Unknown while some edge has not said; True anywhere for the kinds of trouble; the
 * first edge's reason and message at the aggregate status, naming it unless all agree; the latest
 * times.
 */
import { describe, expect, it } from 'vitest'
import type { JsonObject } from '../../../lib/kube/types.ts'
import { mergeConditions } from '../../../lib/summarize/multi-edge-conditions.ts'
import { condition } from './status-fixtures.ts'

const available = (status: string, message = 'm', at = '2026-12-01T10:00:00Z') =>
  condition('Available', status, { reason: `R${status}`, message, lastTransitionTime: at })

type Case = { name: string; edges: JsonObject[][]; want: JsonObject[] }

const cases: Case[] = [
  {
    name: 'True at every edge is True, with the latest transition time',
    edges: [
      [available('True', 'm', '2026-12-01T10:00:00Z')],
      [available('True', 'm', '2026-12-01T11:00:00Z')],
    ],
    want: [
      {
        type: 'Available',
        status: 'True',
        reason: 'RTrue',
        message: 'm',
        lastTransitionTime: '2026-12-01T11:00:00Z',
      },
    ],
  },
  {
    name: 'False at one edge is False, naming that edge',
    edges: [[available('True')], [available('False', 'no minimum')]],
    want: [
      {
        type: 'Available',
        status: 'False',
        reason: 'RFalse',
        message: 'e1: no minimum',
        lastTransitionTime: '2026-12-01T10:00:00Z',
      },
    ],
  },
  {
    name: 'missing at one edge is Unknown, saying which',
    edges: [[available('True')], []],
    want: [
      {
        type: 'Available',
        status: 'Unknown',
        reason: 'NotReportedByEveryEdge',
        message: 'not reported yet by e1',
      },
    ],
  },
  {
    name: 'an edge’s own Unknown is taken as it is',
    edges: [[available('True')], [available('Unknown', 'paused')]],
    want: [
      {
        type: 'Available',
        status: 'Unknown',
        reason: 'RUnknown',
        message: 'e1: paused',
        lastTransitionTime: '2026-12-01T10:00:00Z',
      },
    ],
  },
  {
    name: 'a kind of trouble True at one edge is True; absent elsewhere is not news',
    edges: [
      [],
      [condition('Failed', 'True', { reason: 'BackoffLimitExceeded', message: 'gave up' })],
    ],
    want: [
      { type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'e1: gave up' },
    ],
  },
  {
    name: 'a kind of trouble False everywhere it is reported stays False',
    edges: [[condition('ReplicaFailure', 'False', { message: '' })], []],
    want: [{ type: 'ReplicaFailure', status: 'False', message: '' }],
  },
  {
    name: 'types in the order edges first report them; lastUpdateTime the latest',
    edges: [
      [condition('Progressing', 'True', { message: 'ok', lastUpdateTime: '2026-12-01T09:00:00Z' })],
      [
        available('True'),
        condition('Progressing', 'True', { message: 'ok', lastUpdateTime: '2026-12-01T12:00:00Z' }),
      ],
    ],
    want: [
      {
        type: 'Progressing',
        status: 'True',
        message: 'ok',
        lastUpdateTime: '2026-12-01T12:00:00Z',
      },
      {
        type: 'Available',
        status: 'Unknown',
        reason: 'NotReportedByEveryEdge',
        message: 'not reported yet by e0',
      },
    ],
  },
]

describe('mergeConditions', () => {
  it.each(cases)('$name', ({ edges, want }) => {
    expect(mergeConditions(edges.map((conditions, i) => ({ edge: `e${i}`, conditions })))).toEqual(
      want
    )
  })
})
