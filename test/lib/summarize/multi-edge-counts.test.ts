/**
 * aggregateCounts (lib/summarize/multi-edge-counts.ts), rule by rule and kind by kind: the
 * minimum of what runs against each edge's desired count, the largest surplus of a Deployment's
 * replicas, the maximum of what is unavailable or failed, a DaemonSet's sums, a StatefulSet's
 * revisions, a Job's times, an edge without a report as zero.
 */
import { describe, expect, it } from 'vitest'
import type { JsonObject } from '../../../lib/kube/types.ts'
import {
  aggregateCounts,
  type CountedKind,
  type EdgeCounts,
} from '../../../lib/summarize/multi-edge-counts.ts'

const three = { replicas: 3 }

type Case = {
  name: string
  kind: CountedKind
  spec?: JsonObject
  edges: EdgeCounts[]
  want: JsonObject
}

const cases: Case[] = [
  {
    name: 'Deployment: the least of what runs; zeros left out',
    kind: 'Deployment',
    edges: [
      { status: { replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3 } },
      {
        status: {
          replicas: 3,
          updatedReplicas: 2,
          readyReplicas: 2,
          availableReplicas: 1,
          unavailableReplicas: 2,
        },
      },
    ],
    want: {
      replicas: 3,
      updatedReplicas: 2,
      readyReplicas: 2,
      availableReplicas: 1,
      unavailableReplicas: 2,
    },
  },
  {
    name: 'Deployment: old pods still there at one edge show as the largest surplus',
    kind: 'Deployment',
    edges: [
      { status: { replicas: 3, updatedReplicas: 3, availableReplicas: 3 } },
      { status: { replicas: 4, updatedReplicas: 3, availableReplicas: 3 } },
    ],
    want: { replicas: 4, updatedReplicas: 3, availableReplicas: 3 },
  },
  {
    name: 'Deployment: an edge that has not reported counts zero',
    kind: 'Deployment',
    edges: [{ status: { replicas: 3, updatedReplicas: 3, availableReplicas: 3 } }, {}],
    want: { replicas: 3 },
  },
  {
    name: 'Deployment: each edge against its own desired count (customized to 1)',
    kind: 'Deployment',
    edges: [
      { status: { replicas: 3, updatedReplicas: 3, availableReplicas: 3 } },
      { spec: { replicas: 1 }, status: { replicas: 1, updatedReplicas: 1, availableReplicas: 1 } },
    ],
    want: { replicas: 3, updatedReplicas: 3, availableReplicas: 3 },
  },
  {
    name: 'Deployment: a customized edge behind by one shows one short',
    kind: 'Deployment',
    edges: [
      { status: { replicas: 3, updatedReplicas: 3, availableReplicas: 3 } },
      { spec: { replicas: 5 }, status: { replicas: 5, updatedReplicas: 4, availableReplicas: 4 } },
    ],
    want: { replicas: 3, updatedReplicas: 2, availableReplicas: 2 },
  },
  {
    name: 'ReplicaSet: the least of each',
    kind: 'ReplicaSet',
    edges: [
      { status: { replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 3, availableReplicas: 3 } },
      { status: { replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 1, availableReplicas: 1 } },
    ],
    want: { replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 1, availableReplicas: 1 },
  },
  {
    name: 'StatefulSet: the least of each; revisions agree once every edge rolled out',
    kind: 'StatefulSet',
    edges: [
      {
        status: {
          replicas: 3,
          readyReplicas: 3,
          currentReplicas: 3,
          updatedReplicas: 3,
          currentRevision: 'db-2',
          updateRevision: 'db-2',
        },
      },
      {
        status: {
          replicas: 3,
          readyReplicas: 2,
          currentReplicas: 3,
          updatedReplicas: 3,
          currentRevision: 'db-2',
          updateRevision: 'db-2',
        },
      },
    ],
    want: {
      replicas: 3,
      readyReplicas: 2,
      currentReplicas: 3,
      updatedReplicas: 3,
      currentRevision: 'db-2',
      updateRevision: 'db-2',
    },
  },
  {
    name: 'StatefulSet: one edge still rolling keeps the revisions apart',
    kind: 'StatefulSet',
    edges: [
      {
        status: { replicas: 3, readyReplicas: 3, currentRevision: 'db-2', updateRevision: 'db-2' },
      },
      {
        status: { replicas: 3, readyReplicas: 3, currentRevision: 'db-1', updateRevision: 'db-2' },
      },
    ],
    want: { replicas: 3, readyReplicas: 3, currentRevision: 'db-1', updateRevision: 'db-2' },
  },
  {
    name: 'StatefulSet: a rolling edge whose revisions are named like the first’s done ones',
    kind: 'StatefulSet',
    edges: [
      { status: { replicas: 3, currentRevision: 'db-2', updateRevision: 'db-2' } },
      { status: { replicas: 3, currentRevision: 'db-2', updateRevision: 'db-3' } },
    ],
    want: { replicas: 3, currentRevision: '', updateRevision: 'db-2' },
  },
  {
    name: 'DaemonSet: sums over the edges’ own nodes, zeros kept',
    kind: 'DaemonSet',
    edges: [
      {
        status: {
          desiredNumberScheduled: 3,
          currentNumberScheduled: 3,
          numberReady: 3,
          updatedNumberScheduled: 2,
          numberAvailable: 3,
        },
      },
      {
        status: {
          desiredNumberScheduled: 1,
          currentNumberScheduled: 1,
          numberReady: 1,
          updatedNumberScheduled: 1,
          numberAvailable: 1,
        },
      },
    ],
    want: {
      desiredNumberScheduled: 4,
      currentNumberScheduled: 4,
      numberMisscheduled: 0,
      numberReady: 4,
      updatedNumberScheduled: 3,
      numberAvailable: 4,
    },
  },
  {
    name: 'Job: succeeded the least, failed and active the most, the earliest start',
    kind: 'Job',
    edges: [
      {
        status: {
          succeeded: 1,
          startTime: '2026-12-01T10:05:00Z',
          completionTime: '2026-12-01T10:06:00Z',
        },
      },
      { status: { active: 1, failed: 2, startTime: '2026-12-01T10:00:00Z' } },
    ],
    want: { active: 1, failed: 2, startTime: '2026-12-01T10:00:00Z' },
  },
  {
    name: 'Job: the latest completion once every edge completed',
    kind: 'Job',
    edges: [
      {
        status: {
          succeeded: 1,
          startTime: '2026-12-01T10:05:00Z',
          completionTime: '2026-12-01T10:06:00Z',
        },
      },
      {
        status: {
          succeeded: 1,
          startTime: '2026-12-01T10:00:00Z',
          completionTime: '2026-12-01T10:09:00Z',
        },
      },
    ],
    want: {
      succeeded: 1,
      startTime: '2026-12-01T10:00:00Z',
      completionTime: '2026-12-01T10:09:00Z',
    },
  },
]

describe('aggregateCounts', () => {
  it.each(cases)('$name', ({ kind, spec, edges, want }) => {
    expect(aggregateCounts(kind, spec ?? three, edges)).toEqual(want)
  })
})
