/**
 * The part `workloadWrites` (reconcile-workload-writes.ts) over plain inputs: what it wants of each
 * workload object — executing count, returned status (singleton or aggregated) and where it is
 * from, finalizer — and of objects placed nowhere, and what it reports done. The writer is a fake
 * that records each want.
 */
import { describe, expect, it } from 'vitest'
import { workloadWritesPart } from '../../../functions/reconcile-summarize/reconcile-workload-writes.ts'
import type { WorkloadWant } from '../../../functions/reconcile-summarize/workload-writes.ts'
import type { SourceObject } from '../../../lib/placement/types.ts'
import { pastDeadline } from '../../lib/summarize/status-fixtures.ts'
import {
  configMap,
  deployment,
  dest,
  noUnknowns,
  recorder,
  runInput,
  type Table,
} from './part-fixtures.ts'

const web = deployment('web', 2, { generation: 5 })
const ready = { updatedReplicas: 2, availableReplicas: 2, observedGeneration: 2 }
const stalled = pastDeadline(2, 2)
const one = [dest('e1')]
const two = [dest('e1'), dest('e2')]
const cron: SourceObject = {
  group: 'batch',
  version: 'v1',
  resource: 'cronjobs',
  namespaced: true,
  object: {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'tick', namespace: 'app', uid: 'uid-tick', generation: 1 },
    spec: { schedule: '* * * * *' },
  },
}
const counted = (name: string, count: string) =>
  configMap(name, { annotations: { 'kubestellar.io/executing-count': count } })

type Case = {
  name: string
  table: Table
  /** Objects of the space no placement selects. */
  extra?: SourceObject[]
  keepCounts?: boolean
  /** Whether the kinds have a status subresource (default yes). */
  hasStatus?: boolean
  /** The names of the objects whose write changes something. */
  changes?: string[]
  want: { wants: [string, WorkloadWant | Record<string, unknown>][]; done: string[] }
}

const cases: Case[] = [
  {
    name: 'before any report: count 0, the finalizer once a mailbox holds the copy',
    table: { objects: [web], destinations: one, held: { web: { e1: {} } } },
    changes: ['web'],
    want: {
      wants: [['web', { count: 0, finalizer: true, statusFrom: '0/1' }]],
      done: ['objects 1'],
    },
  },
  {
    name: 'two destinations: the status aggregated from both, the generation observed',
    table: {
      objects: [web],
      destinations: two,
      held: { web: { e1: { status: ready }, e2: { status: { ...ready, availableReplicas: 1 } } } },
    },
    want: {
      wants: [
        [
          'web',
          {
            count: 2,
            finalizer: true,
            statusFrom: '2/2',
            status: expect.objectContaining({
              observedGeneration: 5,
              updatedReplicas: 2,
              availableReplicas: 1,
            }),
          },
        ],
      ],
      done: [],
    },
  },
  {
    name: 'two destinations, one stale and one of an older generation: not observed, 0/2',
    table: {
      objects: [web],
      destinations: two,
      held: { web: { e1: { status: ready, older: true }, e2: { status: ready } } },
      stale: ['e2'],
    },
    want: {
      wants: [
        [
          'web',
          {
            count: 0,
            finalizer: true,
            statusFrom: '0/2 (1 stale)',
            status: expect.objectContaining({ observedGeneration: 4, availableReplicas: 2 }),
          },
        ],
      ],
      done: [],
    },
  },
  {
    name: 'a kind whose status is not aggregated says so; one of two running returns its status',
    table: {
      objects: [cron],
      destinations: two,
      held: { tick: { e1: { status: { active: [] } } } },
    },
    want: {
      wants: [
        [
          'tick',
          { count: 1, finalizer: true, statusFrom: 'not aggregated', status: { active: [] } },
        ],
      ],
      done: [],
    },
  },
  {
    name: 'one destination runs it: its status returned at the object’s generation',
    table: { objects: [web], destinations: one, held: { web: { e1: { status: ready } } } },
    want: {
      wants: [
        [
          'web',
          {
            count: 1,
            finalizer: true,
            statusFrom: '1/1',
            status: { ...ready, observedGeneration: 5 },
          },
        ],
      ],
      done: [],
    },
  },
  {
    name: 'one destination past its progress deadline: its status returned, the generation observed',
    table: { objects: [web], destinations: one, held: { web: { e1: { status: stalled } } } },
    want: {
      wants: [
        [
          'web',
          {
            count: 0,
            finalizer: true,
            statusFrom: '1/1',
            status: { ...stalled, observedGeneration: 5 },
          },
        ],
      ],
      done: [],
    },
  },
  {
    name: 'one destination stalled on an older generation of the copy: its status not returned',
    table: {
      objects: [web],
      destinations: one,
      held: { web: { e1: { status: stalled, older: true } } },
    },
    want: { wants: [['web', { count: 0, finalizer: true, statusFrom: '0/1' }]], done: [] },
  },
  {
    name: 'one destination whose agent reports a problem: stated as a failed rollout',
    table: {
      objects: [web],
      destinations: one,
      held: { web: { e1: { problem: { reason: 'ApplyFailed', message: 'denied' } } } },
    },
    want: {
      wants: [
        [
          'web',
          {
            count: 0,
            finalizer: true,
            statusFrom: '0/1',
            status: expect.objectContaining({
              conditions: expect.arrayContaining([
                expect.objectContaining({
                  type: 'Progressing',
                  status: 'False',
                  reason: 'ProgressDeadlineExceeded',
                }),
              ]),
            }),
          },
        ],
      ],
      done: [],
    },
  },
  {
    name: 'one runs a copy of an older spec: counted, its status not returned',
    table: {
      objects: [web],
      destinations: one,
      held: { web: { e1: { status: ready, outdatedSpec: true } } },
    },
    want: { wants: [['web', { count: 1, finalizer: true, statusFrom: '0/1' }]], done: [] },
  },
  {
    name: 'a kind without a status subresource: counted, no status',
    table: { objects: [web], destinations: one, held: { web: { e1: { status: ready } } } },
    hasStatus: false,
    want: { wants: [['web', { count: 1, finalizer: true }]], done: [] },
  },
  {
    name: 'a copy made of another space only: no finalizer',
    table: { objects: [web], destinations: one, held: { web: { e1: { sources: ['ws-2'] } } } },
    want: { wants: [['web', { count: 0, statusFrom: '0/1' }]], done: [] },
  },
  {
    name: 'a tombstone: no finalizer wanted for it',
    table: { objects: [web], destinations: one, held: { web: { e1: { removing: true } } } },
    want: { wants: [['web', { count: 0, statusFrom: '0/1' }]], done: [] },
  },
  {
    name: 'placed nowhere any more: its count goes',
    table: { objects: [], destinations: two, held: {} },
    extra: [counted('old', '2'), configMap('plain')],
    changes: ['old'],
    want: { wants: [['old', {}]], done: ['objects 1'] },
  },
  {
    name: 'placed nowhere while a placement is unknown: its count is kept',
    table: { objects: [], destinations: two, held: {} },
    extra: [counted('old', '2')],
    keepCounts: true,
    want: { wants: [], done: [] },
  },
]

describe('workloadWrites', () => {
  it.each(cases)('$name', async (c) => {
    const writes = recorder(async (_s: string, o: SourceObject, _w: WorkloadWant) =>
      c.changes?.includes(o.object.metadata.name ?? '') ? ['count'] : []
    )
    const part = workloadWritesPart({
      kinds: async () => ({ hasStatus: () => c.hasStatus ?? true }),
      write: writes.fn,
    })
    const input = await runInput(c.table, {
      extra: c.extra ?? [],
      unknown: noUnknowns({ keepCounts: c.keepCounts ?? false }),
    })
    const r = await part.run(input)
    expect(writes.calls.map(([, o, w]) => [o.object.metadata.name, w])).toEqual(c.want.wants)
    expect(r).toEqual({ done: c.want.done })
  })
})
