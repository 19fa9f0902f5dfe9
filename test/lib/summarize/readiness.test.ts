/** Kind-specific readiness of a reported copy, and where a copy stands, table-driven. */
import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../lib/kube/types.ts'
import type { ManifestEntry } from '../../../lib/store/projection-types.ts'
import { copyCondition } from '../../../lib/summarize/copy-condition.ts'
import { readinessOf } from '../../../lib/summarize/readiness.ts'
import { condition, withConditions } from './status-fixtures.ts'

const body = (kind: string, spec: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind,
  metadata: { name: 'x' },
  spec: spec as never,
})
const cond = (type: string, status = 'True', extra = {}) =>
  withConditions(condition(type, status, extra))

const rows: [string, KubeObject, Record<string, unknown>, string][] = [
  [
    'Deployment all updated and available',
    body('Deployment', { replicas: 2 }),
    { updatedReplicas: 2, availableReplicas: 2 },
    'ready',
  ],
  [
    'Deployment one available of two',
    body('Deployment', { replicas: 2 }),
    { updatedReplicas: 2, availableReplicas: 1 },
    'not-ready',
  ],
  [
    'Deployment default one replica',
    body('Deployment'),
    { updatedReplicas: 1, availableReplicas: 1 },
    'ready',
  ],
  [
    'Deployment whose new pod cannot start while the old one serves',
    body('Deployment'),
    { replicas: 2, updatedReplicas: 1, availableReplicas: 1 },
    'not-ready',
  ],
  [
    'Deployment rolled out, the old replica gone',
    body('Deployment'),
    { replicas: 1, updatedReplicas: 1, availableReplicas: 1 },
    'ready',
  ],
  ['Deployment scaled to zero', body('Deployment', { replicas: 0 }), {}, 'ready'],
  [
    'Deployment past its deadline',
    body('Deployment'),
    cond('Progressing', 'False', { reason: 'ProgressDeadlineExceeded' }),
    'failed',
  ],
  [
    'StatefulSet ready replicas',
    body('StatefulSet', { replicas: 3 }),
    { readyReplicas: 3 },
    'ready',
  ],
  ['ReplicaSet short', body('ReplicaSet', { replicas: 3 }), { readyReplicas: 2 }, 'not-ready'],
  [
    'DaemonSet all ready',
    body('DaemonSet'),
    { desiredNumberScheduled: 2, numberReady: 2 },
    'ready',
  ],
  ['Job complete', body('Job'), cond('Complete'), 'ready'],
  ['Job running', body('Job'), { active: 1 }, 'not-ready'],
  ['Job failed', body('Job'), cond('Failed'), 'failed'],
  ['Pod ready', body('Pod'), cond('Ready'), 'ready'],
  ['Pod not ready', body('Pod'), cond('Ready', 'False'), 'not-ready'],
  ['Pod failed', body('Pod'), { phase: 'Failed' }, 'failed'],
  [
    'Pod crash-looping',
    body('Pod'),
    {
      phase: 'Running',
      containerStatuses: [{ name: 'main', state: { waiting: { reason: 'CrashLoopBackOff' } } }],
    },
    'failed',
  ],
  [
    'Pod with an init container that cannot be pulled',
    body('Pod'),
    {
      phase: 'Pending',
      initContainerStatuses: [{ name: 'init', state: { waiting: { reason: 'ImagePullBackOff' } } }],
    },
    'failed',
  ],
  [
    'Pod still initializing',
    body('Pod'),
    {
      phase: 'Pending',
      containerStatuses: [{ state: { waiting: { reason: 'PodInitializing' } } }],
    },
    'not-ready',
  ],
  ['ConfigMap applied is ready', body('ConfigMap'), {}, 'ready'],
]

describe('readinessOf', () => {
  it.each(rows)('%s', (_n, b, status, want) => {
    expect(readinessOf(b.kind, b, status as never).kind).toBe(want)
  })

  it('names the stuck container and the kubelet reason', () => {
    const status = {
      containerStatuses: [
        {
          name: 'main',
          state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 20s' } },
        },
      ],
    }
    expect(readinessOf('Pod', body('Pod'), status as never)).toEqual({
      kind: 'failed',
      reason: 'CrashLoopBackOff',
      message: 'container main: back-off 20s',
    })
  })
})

const entry = { uid: 'u', generation: 2 } as ManifestEntry
const state = (extra: Record<string, unknown>) => ({ uid: 'u', rv: 1, status: {}, ...extra })

describe('copyCondition', () => {
  it.each([
    [
      'not live: stale, whatever the report',
      { live: false, entry, state: state({ observedGeneration: 2 }) },
      'stale',
    ],
    ['not in the mailbox', { live: true }, 'pending'],
    ['no report', { live: true, entry }, 'pending'],
    [
      'a report of an earlier copy (other uid)',
      { live: true, entry, state: state({ uid: 'old', observedGeneration: 2 }) },
      'pending',
    ],
    [
      'a report for an older generation',
      { live: true, entry, state: state({ observedGeneration: 1 }) },
      'pending',
    ],
    [
      'a problem',
      { live: true, entry, state: state({ problem: { reason: 'ForeignObject', message: 'm' } }) },
      'failed',
    ],
    [
      'current, ready for its kind',
      { live: true, entry, state: state({ observedGeneration: 2 }), body: body('ConfigMap') },
      'ready',
    ],
    [
      'current, not ready',
      { live: true, entry, state: state({ observedGeneration: 2 }), body: body('Job') },
      'applied',
    ],
  ])('%s', (_n, facts, want) => {
    expect(copyCondition(facts as never).state).toBe(want)
  })
})
