/**
 * The counts of a workload object's status aggregated over the edges that report it
 * (multi-edge-status.ts), by kind, so that kube's tools read "at every edge":
 * - Deployment, ReplicaSet, StatefulSet: the counts of what runs (`updatedReplicas`,
 *   `readyReplicas`, `availableReplicas`, ...) are the minimum over the edges, each measured
 *   against that edge's own desired count (a Customizer may change `spec.replicas` per edge): the
 *   object's desired count less the largest shortfall. A Deployment's `replicas` (old pods
 *   included) takes the largest surplus instead and `unavailableReplicas` the maximum, so old pods
 *   still terminating at one edge keep `kubectl rollout status` waiting there.
 * - DaemonSet: the sums, since each edge has its own nodes; an edge behind makes the updated or
 *   available total fall short of the desired one.
 * - Job: `succeeded` and `ready` the minimum, `active`, `failed` and `terminating` the maximum;
 *   the earliest `startTime`, and the latest `completionTime` once every edge has one.
 * - StatefulSet revisions: the first edge's update revision; the current revision is the same only
 *   when every edge has rolled out (else that of the first edge still rolling).
 * An edge that has not reported counts zero everywhere. Zero counts are left out, as kube's
 * omitempty does, but for a DaemonSet's (kube always writes them). Pure.
 */
import type { JsonObject, JsonValue } from '../kube/types.ts'

/** One edge's report: its latest status of the copy, and the copy's spec there. */
export type EdgeCounts = { status?: JsonObject; spec?: JsonObject }

export type CountedKind = 'Deployment' | 'ReplicaSet' | 'StatefulSet' | 'DaemonSet' | 'Job'

const num = (o: JsonObject | undefined, field: string, fallback = 0): number => {
  const v: JsonValue | undefined = o?.[field]
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback
}

type Rule = 'min' | 'max' | 'sum' | 'surplus'

/** Per kind, each count and how it aggregates; `relative` counts are against the desired one. */
const RULES: Record<CountedKind, { relative: boolean; fields: Record<string, Rule> }> = {
  Deployment: {
    relative: true,
    fields: {
      replicas: 'surplus',
      updatedReplicas: 'min',
      readyReplicas: 'min',
      availableReplicas: 'min',
      unavailableReplicas: 'max',
      terminatingReplicas: 'max',
    },
  },
  ReplicaSet: {
    relative: true,
    fields: {
      replicas: 'min',
      fullyLabeledReplicas: 'min',
      readyReplicas: 'min',
      availableReplicas: 'min',
      terminatingReplicas: 'max',
    },
  },
  StatefulSet: {
    relative: true,
    fields: {
      replicas: 'min',
      readyReplicas: 'min',
      currentReplicas: 'min',
      updatedReplicas: 'min',
      availableReplicas: 'min',
    },
  },
  DaemonSet: {
    relative: false,
    fields: {
      currentNumberScheduled: 'sum',
      numberMisscheduled: 'sum',
      desiredNumberScheduled: 'sum',
      numberReady: 'sum',
      updatedNumberScheduled: 'sum',
      numberAvailable: 'sum',
      numberUnavailable: 'sum',
    },
  },
  Job: {
    relative: false,
    fields: { active: 'max', succeeded: 'min', failed: 'max', ready: 'min', terminating: 'max' },
  },
}

const KEEP_ZEROS: ReadonlySet<string> = new Set([
  'currentNumberScheduled',
  'numberMisscheduled',
  'desiredNumberScheduled',
  'numberReady',
])

function aggregate(rule: Rule, values: number[]): number {
  if (values.length === 0) return 0
  if (rule === 'sum') return values.reduce((s, v) => s + v, 0)
  if (rule === 'min') return Math.min(...values)
  return Math.max(...values)
}

/** The aggregated counts of `kind` over `edges`, for an object whose spec is `spec`. */
export function aggregateCounts(
  kind: CountedKind,
  spec: JsonObject,
  edges: readonly EdgeCounts[]
): JsonObject {
  const { relative, fields } = RULES[kind]
  const desired = num(spec, 'replicas', 1)
  const out: JsonObject = {}
  for (const [field, rule] of Object.entries(fields)) {
    const against = relative && rule !== 'max'
    const values = edges.map(
      (e) => num(e.status, field) - (against ? num(e.spec ?? spec, 'replicas', 1) : 0)
    )
    const value = against ? Math.max(0, desired + aggregate(rule, values)) : aggregate(rule, values)
    if (value !== 0 || KEEP_ZEROS.has(field)) out[field] = value
  }
  if (kind === 'StatefulSet') Object.assign(out, revisions(edges))
  if (kind === 'Job') Object.assign(out, jobTimes(edges))
  return out
}

const text = (o: JsonObject | undefined, field: string) => {
  const v = o?.[field]
  return typeof v === 'string' ? v : undefined
}

function revisions(edges: readonly EdgeCounts[]): JsonObject {
  const update = text(edges[0]?.status, 'updateRevision')
  if (update === undefined) return {}
  const rolling = edges.find(
    (e) => text(e.status, 'currentRevision') !== text(e.status, 'updateRevision')
  )
  const current = rolling ? (text(rolling.status, 'currentRevision') ?? '') : update
  return { currentRevision: current === update && rolling ? '' : current, updateRevision: update }
}

function jobTimes(edges: readonly EdgeCounts[]): JsonObject {
  const starts = edges.map((e) => text(e.status, 'startTime')).filter((s) => s !== undefined)
  const ends = edges.map((e) => text(e.status, 'completionTime'))
  const out: JsonObject = {}
  if (starts.length > 0) out.startTime = starts.sort()[0] as string
  if (ends.length > 0 && ends.every((e) => e !== undefined))
    out.completionTime = ends.sort().at(-1) as string
  return out
}
