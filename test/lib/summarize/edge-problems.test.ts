/**
 * Edge problems grouped for Events: per reason one Event about the placement itself, first,
 * counting every failing object and edge and naming the first few (what `kubectl describe
 * edgeplacement` lists); and one per (object, reason) counting and naming the edges, for at most
 * MAX_OBJECT_EVENTS objects (the rest only in the placement's).
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
  it('makes one Event per reason about the placement, then one per object and reason', () => {
    const pairs = [
      ...['e7', 'e2', 'e3', 'e1', 'e6', 'e5', 'e4'].map((e) =>
        pair('a', e, 'ApplyFailed', `no ${e}`)
      ),
      pair('a', 'e1', 'ForeignObject'),
    ]
    expect(problemEvents(pairs, { ...ep, destinations: 10 })).toEqual([
      {
        involved: ep.involved,
        reason: 'ApplyFailed',
        message:
          '1 object reports ApplyFailed at 7 of 10 destinations: configmaps ns/a at e1, e2, e3 and 4 more. configmaps ns/a at e1: no e1',
      },
      {
        involved: ep.involved,
        reason: 'ForeignObject',
        message: '1 object reports ForeignObject at 1 of 10 destinations: configmaps ns/a at e1',
      },
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

  it('counts every object in the placement’s Event, and gives only the first ones their own', () => {
    const names = Array.from(
      { length: MAX_OBJECT_EVENTS + 7 },
      (_, i) => `o${String(i).padStart(3, '0')}`
    )
    const pairs = names.flatMap((n, i) => [
      pair(n, 'e1', 'ApplyFailed'),
      pair(n, i % 2 ? 'e2' : 'e3', 'ApplyFailed', i === 3 ? 'denied' : undefined),
    ])
    const events = problemEvents(pairs, { ...ep, destinations: 4 })
    expect(events).toHaveLength(1 + MAX_OBJECT_EVENTS)
    expect(events[0]).toEqual({
      involved: ep.involved,
      reason: 'ApplyFailed',
      message:
        '57 objects report ApplyFailed at 3 of 4 destinations: configmaps ns/o000 at e1, e3; configmaps ns/o001 at e1, e2; configmaps ns/o002 at e1, e3; configmaps ns/o003 at e1, e2; configmaps ns/o004 at e1, e3 and 52 more. configmaps ns/o003 at e2: denied',
    })
    expect(events.slice(1).map((e) => e.involved.name)).toEqual(names.slice(0, MAX_OBJECT_EVENTS))
  })
})
