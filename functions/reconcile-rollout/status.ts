/**
 * The Rollout's status as the rollout step (its one writer) writes it: what lib/rollout/progress.ts
 * decided, with two conditions — Progressing (True while a revision moves through the waves or
 * waits on a soak or an approval; False with the phase as reason once Complete, Paused or
 * RolledBack) and GateFailed (True with the failed wave's reason and message while a wave stands
 * failed), and the step's others (Conflict) — each keeping its lastTransitionTime while its status holds. Written through the status
 * subresource with the resourceVersion read as precondition, and only when it differs.
 */
import type { RolloutStatus } from '../../lib/apis/edge-rollout.ts'
import { ROLLOUTS } from '../../lib/apis/gvr.ts'
import type { Condition } from '../../lib/apis/meta.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { deepEqual } from '../../lib/patch/json-values.ts'

const MOVING = new Set(['Progressing', 'WaitingForSoak', 'WaitingForApproval'])

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')

function condition(
  previous: readonly Condition[] | undefined,
  want: Omit<Condition, 'lastTransitionTime'>,
  nowMs: number
): Condition {
  const before = previous?.find((c) => c.type === want.type)
  const since =
    before && before.status === want.status && before.lastTransitionTime
      ? before.lastTransitionTime
      : iso(nowMs)
  return { ...want, lastTransitionTime: since }
}

/**
 * The decided status with its conditions, given the conditions stored before; `more` are the
 * step's other conditions (Conflict, conflicts.ts), kept after these two.
 */
export function withConditions(
  decided: RolloutStatus,
  previous: readonly Condition[] | undefined,
  nowMs: number,
  more: readonly Omit<Condition, 'lastTransitionTime'>[] = []
): RolloutStatus {
  const phase = decided.phase ?? 'Progressing'
  const generation = decided.observedGeneration ?? 0
  const moving = MOVING.has(phase)
  const progressing = condition(
    previous,
    {
      type: 'Progressing',
      status: moving ? 'True' : 'False',
      reason: phase,
      message: moving
        ? `revision ${decided.revision} is at wave ${decided.currentWave ?? ''}`
        : `revision ${decided.revision}: ${phase}; completed revision ${decided.completedRevision}${
            decided.pendingRevision ? `; revision ${decided.pendingRevision} waits for resume` : ''
          }`,
      observedGeneration: generation,
    },
    nowMs
  )
  const failed = (decided.waves ?? []).find((w) => w.failedAt)
  const gate = condition(
    previous,
    failed
      ? {
          type: 'GateFailed',
          status: 'True',
          reason: failed.failureReason ?? 'GateFailed',
          message: `wave ${failed.name}: ${failed.failureMessage ?? ''}`,
          observedGeneration: generation,
        }
      : {
          type: 'GateFailed',
          status: 'False',
          reason: 'NoFailedGate',
          message: 'no wave stands failed',
          observedGeneration: generation,
        },
    nowMs
  )
  const others = more.map((c) => condition(previous, c, nowMs))
  return { ...decided, conditions: [progressing, gate, ...others] }
}

/** Writes `status` when the Rollout says otherwise; whether it wrote. */
export async function writeStatus(
  client: HubClient,
  spaceId: string,
  rollout: KubeObject,
  status: RolloutStatus
): Promise<boolean> {
  if (deepEqual(rollout.status ?? {}, status)) return false
  await client.updateStatus(spaceId, ROLLOUTS, {
    ...rollout,
    status: status as KubeObject['status'],
  })
  return true
}
