/**
 * Edge problems grouped for Events: one per (object, reason) counting and naming the edges, the
 * objects past MAX_OBJECT_EVENTS folded into one Event per reason about the placement.
 */
import { describe, expect, it } from 'vitest'
import {
  type FailedPair,
  failedByReason,
  MAX_OBJECT_EVENTS,
  problemEvents,
} from '../../../lib/summarize/edge-problems.ts'

const object = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', name, namespace: 'ns' })
const pair = (name: string, destination: string, reason: string, message?: string) =>
  ({
    objectKey: `/configmaps/ns/${name}`,
    label: `configmaps ns/${name}`,
    object: object(name),
    destination,
    reason,
    ...(message ? { message } : {}),
  }) as FailedPair
const ep = { involved: { apiVersion: 'edge.kcp.io/v1alpha1', kind: 'EdgePlacement', name: 'p' } }

describe('problemEvents', () => {
  it('makes one Event per object and reason, naming the first five edges in order', () => {
    const pairs = [
      ...['e7', 'e2', 'e3', 'e1', 'e6', 'e5', 'e4'].map((e) =>
        pair('a', e, 'ApplyFailed', `no ${e}`)
      ),
      pair('a', 'e1', 'ForeignObject'),
    ]
    expect(problemEvents(pairs, { ...ep, destinations: 10 })).toEqual([
      {
        involved: object('a'),
        reason: 'ApplyFailed',
        message:
          '7 of 10 destinations of EdgePlacement p report ApplyFailed: e1, e2, e3, e4, e5 and 2 more. e1: no e1',
      },
      {
        involved: object('a'),
        reason: 'ForeignObject',
        message: '1 of 10 destinations of EdgePlacement p report ForeignObject: e1',
      },
    ])
    expect(failedByReason(pairs)).toEqual(
      new Map([
        ['ApplyFailed', 7],
        ['ForeignObject', 1],
      ])
    )
  })

  it('folds the objects past the cap into one Event per reason about the placement', () => {
    const names = Array.from(
      { length: MAX_OBJECT_EVENTS + 7 },
      (_, i) => `o${String(i).padStart(3, '0')}`
    )
    const pairs = names.flatMap((n, i) => [
      pair(n, 'e1', 'ApplyFailed'),
      pair(n, `e${i % 3}`, 'ApplyFailed'),
    ])
    const events = problemEvents(pairs, { ...ep, destinations: 4 })
    expect(events).toHaveLength(MAX_OBJECT_EVENTS + 1)
    expect(events.at(-1)).toEqual({
      involved: ep.involved,
      reason: 'ApplyFailed',
      message:
        '7 more objects report ApplyFailed at 3 of 4 destinations: configmaps ns/o050, configmaps ns/o051, configmaps ns/o052, configmaps ns/o053, configmaps ns/o054 and 2 more',
    })
  })
})
