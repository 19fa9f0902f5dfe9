/**
 * multiEdgeStatus (lib/summarize/multi-edge-status.ts), rule by rule: only live edges count; the
 * generation is observed once every selected edge reported on the current spec; an agent's problem
 * is the failure kube's tools stop on; the `edge.kcp.io/Aggregated` condition and the short
 * `from` say how many edges the status is from and name the others.
 */
import { describe, expect, it } from 'vitest'
import type { JsonObject } from '../../../lib/kube/types.ts'
import {
  AGGREGATED_CONDITION,
  type EdgeReport,
  isAggregatedKind,
  type MultiEdgeInput,
  multiEdgeStatus,
} from '../../../lib/summarize/multi-edge-status.ts'
import { pastDeadline, reasoned, rolledOut, TIMED_OUT } from './status-fixtures.ts'

const NOW = '2026-12-01T12:00:00Z'
const BEFORE = '2026-12-01T09:00:00Z'
const deployed = rolledOut(3, 4)
const edge = (name: string, over: Partial<EdgeReport> = {}): EdgeReport => ({
  edge: name,
  live: true,
  current: true,
  status: deployed,
  ...over,
})
const input = (edges: EdgeReport[], over: Partial<MultiEdgeInput> = {}): MultiEdgeInput => ({
  kind: 'Deployment',
  generation: 3,
  spec: { replicas: 3 },
  edges,
  now: NOW,
  ...over,
})
const aggregatedOf = (s: JsonObject) =>
  (s.conditions as JsonObject[]).find((c) => c.type === AGGREGATED_CONDITION)
const typeOf = (s: JsonObject, type: string) =>
  (s.conditions as JsonObject[]).find((c) => c.type === type)

describe('multiEdgeStatus', () => {
  it('every edge rolled out: the generation observed, counts, Available, from every edge', () => {
    const { status, from } = multiEdgeStatus(input([edge('e1'), edge('e2')]))
    expect(status).toEqual({
      observedGeneration: 3,
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      conditions: [
        reasoned('Available', 'True', 'MinimumReplicasAvailable'),
        reasoned('Progressing', 'True', 'NewReplicaSetAvailable'),
        {
          ...reasoned(
            AGGREGATED_CONDITION,
            'True',
            'AllEdgesReported',
            'status of 2 of 2 edges: e1, e2'
          ),
          observedGeneration: 3,
          lastTransitionTime: NOW,
        },
      ],
    })
    expect(from).toBe('2/2')
  })

  it('an edge that has not reported the current spec: the generation is not observed', () => {
    const behind = edge('e2', { current: false })
    const fresh = multiEdgeStatus(input([edge('e1'), behind]))
    expect(fresh.status.observedGeneration).toBe(2)
    const kept = multiEdgeStatus(
      input([edge('e1'), behind], { previous: { observedGeneration: 1 } })
    )
    expect(kept.status.observedGeneration).toBe(1)
    expect(aggregatedOf(kept.status)).toMatchObject({
      status: 'False',
      reason: 'EdgesNotReported',
      message: 'status of 1 of 2 edges: e1; not reported on generation 3 yet: e2',
    })
    expect(kept.from).toBe('1/2')
  })

  it('a stale edge is not counted but named; its last report of the current spec is observed', () => {
    const half = { ...deployed, readyReplicas: 1, availableReplicas: 1 }
    const stale = edge('e2', { live: false, status: half })
    const { status, from } = multiEdgeStatus(input([edge('e1'), stale]))
    expect(status).toMatchObject({ observedGeneration: 3, readyReplicas: 3, availableReplicas: 3 })
    expect(aggregatedOf(status)).toMatchObject({
      status: 'False',
      reason: 'StaleEdges',
      message: 'status of 1 of 2 edges: e1; stale, not counted: e2',
    })
    expect(from).toBe('1/2 (1 stale)')
    const never = multiEdgeStatus(input([edge('e1'), { ...stale, current: false }]))
    expect(never.status.observedGeneration).toBe(2)
  })

  it('a live edge that has not reported anything counts zero and keeps Available Unknown', () => {
    const { status } = multiEdgeStatus(
      input([edge('e1'), edge('e2', { current: false, status: undefined })])
    )
    expect(status).toMatchObject({ observedGeneration: 2, replicas: 3 })
    expect(status.availableReplicas).toBeUndefined()
    expect(typeOf(status, 'Available')).toMatchObject({
      status: 'Unknown',
      reason: 'NotReportedByEveryEdge',
    })
  })

  it('ProgressDeadlineExceeded at one edge is the object’s Progressing', () => {
    const timedOut = pastDeadline(3, 4)
    const { status } = multiEdgeStatus(input([edge('e1'), edge('e2', { status: timedOut })]))
    expect(status.observedGeneration).toBe(3)
    expect(typeOf(status, 'Progressing')).toEqual(
      reasoned('Progressing', 'False', 'ProgressDeadlineExceeded', `e2: ${TIMED_OUT}`)
    )
    expect(aggregatedOf(status)?.status).toBe('True')
  })

  it('an agent’s problem is a Deployment past its deadline, with the agent’s reason', () => {
    const failed = edge('e2', {
      status: undefined,
      problem: { reason: 'ApplyFailed', message: 'admission denied' },
    })
    const { status } = multiEdgeStatus(input([edge('e1'), failed]))
    expect(status.observedGeneration).toBe(3)
    expect(typeOf(status, 'Progressing')).toEqual(
      reasoned(
        'Progressing',
        'False',
        'ProgressDeadlineExceeded',
        'e2: ApplyFailed: admission denied'
      )
    )
    expect(aggregatedOf(status)?.message).toBe(
      'status of 2 of 2 edges: e1, e2; problems: e2 (ApplyFailed)'
    )
  })

  it('an agent’s problem fails a Job and makes a Pod not Ready', () => {
    const problem = { reason: 'ApplyFailed', message: 'denied' }
    const job = multiEdgeStatus(
      input(
        [edge('e1', { status: { succeeded: 1 } }), edge('e2', { status: undefined, problem })],
        { kind: 'Job' }
      )
    )
    expect(typeOf(job.status, 'Failed')).toEqual(
      reasoned('Failed', 'True', 'ApplyFailed', 'e2: denied')
    )
    const pod = multiEdgeStatus(
      input(
        [
          edge('e1', { status: { phase: 'Running', conditions: [reasoned('Ready', 'True', '')] } }),
          edge('e2', { status: undefined, problem }),
        ],
        {
          kind: 'Pod',
        }
      )
    )
    expect(pod.status.phase).toBe('Pending')
    expect(pod.status.observedGeneration).toBeUndefined()
    expect(typeOf(pod.status, 'Ready')).toEqual(
      reasoned('Ready', 'False', 'ApplyFailed', 'e2: denied')
    )
  })

  it('keeps the Aggregated condition’s transition time while its status holds', () => {
    const previous = {
      conditions: [
        {
          ...reasoned(AGGREGATED_CONDITION, 'False', 'StaleEdges', 'old'),
          lastTransitionTime: BEFORE,
        },
      ],
    }
    const behind = edge('e2', { current: false })
    expect(
      aggregatedOf(multiEdgeStatus(input([edge('e1'), behind], { previous })).status)
        ?.lastTransitionTime
    ).toBe(BEFORE)
    expect(
      aggregatedOf(multiEdgeStatus(input([edge('e1'), edge('e2')], { previous })).status)
        ?.lastTransitionTime
    ).toBe(NOW)
  })

  it('names five edges, then counts the rest', () => {
    const edges = Array.from({ length: 7 }, (_, i) => edge(`e${i}`))
    expect(aggregatedOf(multiEdgeStatus(input(edges)).status)?.message).toBe(
      'status of 7 of 7 edges: e0, e1, e2, e3, e4 and 2 more'
    )
  })

  it.each([
    ['Deployment', true],
    ['StatefulSet', true],
    ['DaemonSet', true],
    ['ReplicaSet', true],
    ['Job', true],
    ['Pod', true],
    ['CronJob', false],
    ['Service', false],
  ])('%s is aggregated: %s', (kind, want) => {
    expect(isAggregatedKind(kind)).toBe(want)
  })
})
