/**
 * kube's declared defaults of the workload kinds (pkg/apis/apps/v1 and batch/v1 defaults.go and
 * their `+default` markers), each with its pod template's (pod-defaults.ts): Deployment (replicas
 * 1, RollingUpdate 25%/25%, revisionHistoryLimit 10, progressDeadlineSeconds 600), ReplicaSet
 * (replicas 1), StatefulSet (replicas 1, OrderedReady, RollingUpdate partition 0, history 10,
 * Retain PVCs; each volumeClaimTemplate volumeMode Filesystem and phase Pending), DaemonSet
 * (RollingUpdate maxUnavailable 1 / maxSurge 0, history 10), Job (completions 1 when parallelism
 * is unset too, parallelism 1, backoffLimit 6 — the int32 maximum with a per-index limit —,
 * NonIndexed, not suspended, podReplacementPolicy TerminatingOrFailed, Failed with a
 * podFailurePolicy), CronJob (Allow, not suspended, history 3/1; its job template gets only its
 * pod template's defaults, as in kube). A Job's generated selector is no default: kube makes it
 * from the Job's uid at create (the strategy, not defaulting), which differs at every edge.
 */
import { POD_TEMPLATE } from './pod-defaults.ts'
import { constant, type DefaultRule, emptyObject, items, member, type Scope } from './scopes.ts'

/** `rollingUpdate: {}` when the strategy in the node is RollingUpdate, filled by `inner`. */
function rollingStrategy(key: string, rolling: readonly DefaultRule[]): Scope {
  return {
    nodes: member(key),
    rules: [
      constant('type', 'RollingUpdate'),
      { key: 'rollingUpdate', value: (s) => (s.type === 'RollingUpdate' ? {} : undefined) },
    ],
    inner: [{ nodes: member('rollingUpdate'), rules: rolling }],
  }
}

const spec = (rules: readonly DefaultRule[], inner: readonly Scope[] = []): Scope[] => [
  { nodes: member('spec'), rules, inner: [...inner, POD_TEMPLATE] },
]

export const DEPLOYMENT: readonly Scope[] = spec(
  [
    constant('replicas', 1),
    emptyObject('strategy'),
    constant('revisionHistoryLimit', 10),
    constant('progressDeadlineSeconds', 600),
  ],
  [rollingStrategy('strategy', [constant('maxUnavailable', '25%'), constant('maxSurge', '25%')])]
)

export const REPLICA_SET: readonly Scope[] = spec([constant('replicas', 1)])

const claimTemplates: Scope = {
  nodes: items('volumeClaimTemplates'),
  rules: [emptyObject('status')],
  inner: [
    { nodes: member('spec'), rules: [constant('volumeMode', 'Filesystem')] },
    { nodes: member('status'), rules: [constant('phase', 'Pending')] },
  ],
}

export const STATEFUL_SET: readonly Scope[] = spec(
  [
    constant('replicas', 1),
    constant('podManagementPolicy', 'OrderedReady'),
    emptyObject('updateStrategy'),
    constant('revisionHistoryLimit', 10),
    emptyObject('persistentVolumeClaimRetentionPolicy'),
  ],
  [
    rollingStrategy('updateStrategy', [constant('partition', 0)]),
    {
      nodes: member('persistentVolumeClaimRetentionPolicy'),
      rules: [constant('whenDeleted', 'Retain'), constant('whenScaled', 'Retain')],
    },
    claimTemplates,
  ]
)

export const DAEMON_SET: readonly Scope[] = spec(
  [emptyObject('updateStrategy'), constant('revisionHistoryLimit', 10)],
  [rollingStrategy('updateStrategy', [constant('maxUnavailable', 1), constant('maxSurge', 0)])]
)

const unset = (v: unknown) => v === undefined || v === null

const INT32_MAX = 2147483647

export const JOB: readonly Scope[] = spec([
  { key: 'completions', value: (s) => (unset(s.parallelism) ? 1 : undefined) },
  constant('parallelism', 1),
  { key: 'backoffLimit', value: (s) => (unset(s.backoffLimitPerIndex) ? 6 : INT32_MAX) },
  constant('completionMode', 'NonIndexed'),
  constant('suspend', false),
  {
    key: 'podReplacementPolicy',
    value: (s) => (unset(s.podFailurePolicy) ? 'TerminatingOrFailed' : 'Failed'),
  },
])

export const CRON_JOB: readonly Scope[] = [
  {
    nodes: member('spec'),
    rules: [
      constant('concurrencyPolicy', 'Allow'),
      constant('suspend', false),
      constant('successfulJobsHistoryLimit', 3),
      constant('failedJobsHistoryLimit', 1),
    ],
    inner: [
      {
        nodes: member('jobTemplate'),
        rules: [],
        inner: [{ nodes: member('spec'), rules: [], inner: [POD_TEMPLATE] }],
      },
    ],
  },
]
