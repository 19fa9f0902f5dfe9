/**
 * zod schema of the `Rollout` kind (`edge.kcp.io/v1alpha1`, cluster-scoped in a workload space;
 * docs/architecture/placement.md, "Rollout"): which objects of its space it governs (an
 * EdgePlacement's "what": `namespaceSelector`, `nonNamespacedObjects`), the ordered waves their
 * changes go through (each a set of Location selectors, or none for every edge no earlier wave
 * took; at most `maxEdges` in flight; an optional approval), the gate a wave must pass before the
 * next is promoted, what a failed gate does, a user pause and the approvals given. Defaults are
 * safe: every reporting edge ready, a 60 s soak, a 600 s deadline, no failed edge, stale edges
 * waited for, Pause. The status, written by the rollout step alone, names the revision in flight
 * and the last completed one, the phase, the current wave and per wave where its edges stand;
 * every field is described, for `kubectl explain`. Admission refuses what can never work:
 * duplicate wave names, a catch-all wave that is not last (the waves after it could never be
 * reached), a percentage outside 1–100 %, an approval of a wave that does not exist.
 */
import { z } from 'zod'
import { dnsLabelErrors } from '../kube/names.ts'
import { kindObject } from './kind-object.ts'
import { ConditionSchema, LabelSelectorSchema } from './meta.ts'
import { RolloutPreviewSchema } from './rollout-preview.ts'

export const MAX_WAVES = 20
export const MAX_APPROVALS = 50
export const MAX_WAVE_FAILURES = 10

export const ROLLOUT_PHASES = [
  'Progressing',
  'WaitingForSoak',
  'WaitingForApproval',
  'Paused',
  'Complete',
  'RolledBack',
] as const
export type RolloutPhase = (typeof ROLLOUT_PHASES)[number]

export const STALE_EDGE_POLICIES = ['Skip', 'Wait', 'Fail'] as const
export const FAILURE_POLICIES = ['Pause', 'Rollback'] as const

export const GATE_DEFAULTS = {
  readyPercent: 100,
  soakSeconds: 60,
  deadlineSeconds: 600,
  maxFailedEdges: 0,
  minEdgesTried: 1,
  staleEdges: 'Wait',
} as const

const PERCENT = /^(\d{1,3})%$/

/** A count (≥ `min`) or a percentage `"N%"` with N in 1..100. */
const countOrPercent = (min: number, what: string) =>
  z.union([z.int32().min(min), z.string()]).superRefine((v, ctx) => {
    if (typeof v === 'number') return
    const m = PERCENT.exec(v)
    const n = m ? Number(m[1]) : Number.NaN
    if (!(n >= 1 && n <= 100))
      ctx.addIssue({
        code: 'custom',
        message: `Invalid value: "${v}": ${what} must be a count or a percentage from 1% to 100%`,
      })
  })

export type CountOrPercent = number | string

/** How many of `total` a count or percentage allows (a percentage rounds up: 10% of 5 is 1). */
export function resolveCount(v: CountOrPercent, total: number): number {
  if (typeof v === 'number') return v
  const n = Number(PERCENT.exec(v)?.[1] ?? 100)
  return Math.ceil((total * n) / 100)
}

const NonNamespacedSchema = z.object({
  apiGroup: z.string().optional().describe('API group; empty is the core group.'),
  resources: z.array(z.string()).optional().describe('Lowercase plural resources; "*" means all.'),
  resourceNames: z.array(z.string()).optional().describe('Object names; "*" means all.'),
  labelSelectors: z
    .array(LabelSelectorSchema)
    .optional()
    .describe('Objects whose labels match any of these are governed too, whatever their name.'),
})

export const RolloutWaveSchema = z.object({
  name: z.string().describe('The wave’s name, a DNS label, unique in the Rollout.'),
  locationSelectors: z
    .array(LabelSelectorSchema)
    .optional()
    .describe(
      'The Locations whose edges are in this wave (any selector matching); an edge is in the ' +
        'first wave that selects it. Absent or empty: every edge no earlier wave took (last only).'
    ),
  maxEdges: countOrPercent(1, 'maxEdges')
    .optional()
    .describe('How many of the wave’s edges get the new revision at once (a count or "N%").'),
  approval: z
    .boolean()
    .optional()
    .describe(
      'Wait before promoting this wave until spec.approvals holds {wave, revision} for it.'
    ),
})
export type RolloutWave = z.infer<typeof RolloutWaveSchema>

export const RolloutGateSchema = z.object({
  readyPercent: z
    .int32()
    .min(1)
    .max(100)
    .optional()
    .describe('Percent of the wave’s counted edges that must be ready at the revision (100).'),
  soakSeconds: z
    .int32()
    .min(0)
    .optional()
    .describe('How long the wave must stay passing before the next is promoted (60).'),
  deadlineSeconds: z
    .int32()
    .min(1)
    .optional()
    .describe('How long after its promotion the wave may take to pass (600).'),
  maxFailedEdges: countOrPercent(0, 'maxFailedEdges')
    .optional()
    .describe('Failed edges the wave tolerates, a count or a percentage of the wave (0).'),
  minEdgesTried: z
    .int32()
    .min(1)
    .optional()
    .describe('Edges that must have reported before a percentage of failures counts (1).'),
  staleEdges: z
    .enum(STALE_EDGE_POLICIES)
    .optional()
    .describe(
      'What an edge that is not reporting counts as: Skip (left out; it gets the revision when ' +
        'it returns), Wait (the gate waits for it until the deadline; the default) or Fail.'
    ),
})
export type RolloutGate = z.infer<typeof RolloutGateSchema>

export const ApprovalSchema = z.object({
  wave: z.string().describe('The wave approved.'),
  revision: z.int32().min(1).describe('The revision it is approved for.'),
})

export const RolloutSpecSchema = z
  .object({
    namespaceSelector: LabelSelectorSchema.optional().describe(
      'Namespaces whose objects this Rollout governs.'
    ),
    nonNamespacedObjects: z
      .array(NonNamespacedSchema)
      .optional()
      .describe('Cluster-scoped objects this Rollout governs.'),
    waves: z
      .array(RolloutWaveSchema)
      .min(1)
      .max(MAX_WAVES)
      .describe('The waves a new revision goes through, in order.'),
    gate: RolloutGateSchema.optional().describe('What a wave must show before the next one.'),
    onFailure: z
      .enum(FAILURE_POLICIES)
      .optional()
      .describe(
        'When a wave fails its gate: Pause (stop where it is) or Rollback (the promoted waves ' +
          'get the last completed revision). Default Pause.'
      ),
    paused: z.boolean().optional().describe('Hold every wave where it is until set false.'),
    approvals: z
      .array(ApprovalSchema)
      .max(MAX_APPROVALS)
      .optional()
      .describe('Approvals given to waves with approval: true, each for one revision.'),
  })
  .superRefine((spec, ctx) => {
    const names = new Set<string>()
    spec.waves.forEach((w, i) => {
      for (const e of dnsLabelErrors(w.name))
        ctx.addIssue({ code: 'custom', path: ['waves', i, 'name'], message: `Invalid value: ${e}` })
      if (names.has(w.name))
        ctx.addIssue({
          code: 'custom',
          path: ['waves', i, 'name'],
          message: `Duplicate value: "${w.name}"`,
          params: { reason: 'FieldValueDuplicate' },
        })
      names.add(w.name)
      const catchAll = (w.locationSelectors ?? []).length === 0
      if (catchAll && i < spec.waves.length - 1)
        ctx.addIssue({
          code: 'custom',
          path: ['waves', i, 'locationSelectors'],
          message:
            'Invalid value: a wave without locationSelectors takes every remaining edge, so the waves after it could never be reached; make it the last',
        })
    })
    ;(spec.approvals ?? []).forEach((a, i) => {
      if (!names.has(a.wave))
        ctx.addIssue({
          code: 'custom',
          path: ['approvals', i, 'wave'],
          message: `Invalid value: "${a.wave}": no wave has this name`,
        })
    })
  })
export type RolloutSpec = z.infer<typeof RolloutSpecSchema>

const count = () => z.int32().min(0)

export const WaveFailureSchema = z.object({
  cluster: z.string().describe('The inventory space of the edge.'),
  syncTarget: z.string().describe('The SyncTarget (edge) that failed, in that space.'),
  reason: z.string().describe('Why, as the edge reported it (ApplyFailed, ImagePullBackOff...).'),
  message: z.string().optional().describe('The first words of what the edge reported.'),
})

export const WaveStatusSchema = z.object({
  name: z.string().describe('The wave’s name, as in spec.waves.'),
  revision: z.int32().min(0).optional().describe('The revision this wave was promoted to.'),
  cut: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe('Of the edges ordered for this revision, the share promoted (maxEdges).'),
  from: z
    .int32()
    .min(0)
    .optional()
    .describe('The revision the wave’s edges above the cut keep until they are promoted.'),
  promotedAt: z.string().optional().describe('When the wave was promoted to its revision.'),
  passingSince: z.string().optional().describe('Since when the wave passes its gate (soak).'),
  failedAt: z.string().optional().describe('When the wave failed its gate at its revision.'),
  failedGeneration: z
    .int32()
    .optional()
    .describe('The Rollout’s generation when it failed: an approval added since resumes it.'),
  failureReason: z.string().optional().describe('TooManyFailures or DeadlineExceeded.'),
  failureMessage: z.string().optional().describe('What the failed gate saw.'),
  edges: count().describe('Edges in this wave.'),
  ready: count().describe('Edges ready at the wave’s revision.'),
  failed: count().describe('Edges failed at the wave’s revision.'),
  stale: count().describe('Edges not reporting (counted as staleEdges says).'),
  pending: count().describe('Edges not yet ready at the wave’s revision, nor failed, nor stale.'),
  failures: z
    .array(WaveFailureSchema)
    .max(MAX_WAVE_FAILURES)
    .optional()
    .describe(`The first failed edges (at most ${MAX_WAVE_FAILURES}) and why.`),
})
export type WaveStatus = z.infer<typeof WaveStatusSchema>

export const RolloutStatusSchema = z.object({
  observedGeneration: z
    .int32()
    .optional()
    .describe('The metadata.generation this status was written for.'),
  phase: z
    .enum(ROLLOUT_PHASES)
    .optional()
    .describe(
      'Progressing, WaitingForSoak, WaitingForApproval, Paused (by spec.paused or a failed ' +
        'gate), Complete or RolledBack.'
    ),
  revision: z.int32().min(0).optional().describe('The revision in flight (or the last one).'),
  pendingRevision: z
    .int32()
    .min(1)
    .optional()
    .describe(
      'A newer revision cut while the Rollout is paused: it starts from the first wave on resume.'
    ),
  completedRevision: z.int32().min(0).optional().describe('The last revision every wave passed.'),
  currentWave: z.string().optional().describe('The wave the revision in flight is at.'),
  waves: z
    .array(WaveStatusSchema)
    .max(MAX_WAVES)
    .optional()
    .describe('Per wave, in spec order: its revision, its cut and where its edges stand.'),
  conditions: z
    .array(ConditionSchema)
    .optional()
    .describe(
      'Progressing (the phase and why), GateFailed (the last failed gate) and Conflict (another ' +
        'Rollout selects some of the same objects).'
    )
    .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] }),
  preview: RolloutPreviewSchema.optional(),
})
export type RolloutStatus = z.infer<typeof RolloutStatusSchema>

export const RolloutSchema = kindObject(
  'Rollout',
  'Stages the changes of the objects it selects in its workload space through ordered waves of ' +
    'edges: each numbered revision reaches a wave only after the previous wave passed its gate ' +
    '(ready edges, failures, a soak, a deadline), whichever EdgePlacements send the objects.',
  {
    spec: RolloutSpecSchema.describe('What it governs, its waves, gate and failure policy.'),
    status: RolloutStatusSchema.optional().describe(
      'Where the rollout stands, written by the rollout step alone.'
    ),
  }
)
export type Rollout = z.infer<typeof RolloutSchema>
