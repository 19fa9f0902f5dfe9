/**
 * A SyncTarget's `Ready` condition and `status.agentVersion`, as Kubernetes keeps a Node's Ready
 * condition and kubelet version: what `kubectl get synctargets` prints (READY, REASON, VERSION).
 * By the one staleness rule (lib/summarize/liveness.ts) the edge is `True`/`Heartbeating` while
 * its agent was heard within the threshold, `Unknown`/`Stale` once silent that long (the center no
 * longer knows what the edge runs: unknown, as kube's node controller says of a silent kubelet,
 * not failed) and `Unknown`/`NeverSeen` while no agent ever sent a heartbeat. The message names
 * the agent's version and the threshold, never a time, so a live edge's condition does not change
 * from one heartbeat to the next; lastTransitionTime moves only when the status does.
 * `livenessStatus` is the status the writer (sync-target-liveness.ts) should store, or undefined
 * when the stored one already says so. Pure.
 */
import {
  type ConditionStamp,
  conditionHolds,
  type WantedCondition,
  withCondition,
} from '../kube/conditions.ts'
import { humanDuration } from '../kube/printers/duration.ts'
import type { JsonObject, JsonValue, KubeObject } from '../kube/types.ts'
import { isJsonObject } from '../patch/json-values.ts'
import { type Liveness, livenessAt } from '../summarize/liveness.ts'

export const SYNC_TARGET_READY = 'Ready'

/** What the center knows of an edge's agent: when it was last heard, and what it said it is. */
export type AgentHeard = { lastHeard: number | undefined; agentVersion: string | undefined }

const agentText = (version: string | undefined) =>
  version ? `the edge agent (version ${version})` : 'the edge agent'

/** The Ready condition `heard` calls for at `nowMs` by `rule`. */
export function readyWanted(heard: AgentHeard, nowMs: number, rule: Liveness): WantedCondition {
  const threshold = humanDuration(rule.staleAfterMs)
  const agent = agentText(heard.agentVersion)
  switch (livenessAt(heard.lastHeard, nowMs, rule)) {
    case 'Heartbeating':
      return {
        status: 'True',
        reason: 'Heartbeating',
        message: `${agent} is sending heartbeats (stale after ${threshold} of silence)`,
      }
    case 'Stale':
      return {
        status: 'Unknown',
        reason: 'Stale',
        message: `${agent} sent no heartbeat for ${threshold} or more: what the edge runs now is unknown`,
      }
    default:
      return {
        status: 'Unknown',
        reason: 'NeverSeen',
        message: 'no edge agent has sent a heartbeat for this SyncTarget yet',
      }
  }
}

function statusOf(st: KubeObject): JsonObject {
  const s = st.status as JsonValue | undefined
  return isJsonObject(s) ? s : {}
}

const conditionsOf = (status: JsonObject): JsonObject[] =>
  Array.isArray(status.conditions) ? status.conditions.filter(isJsonObject) : []

/** The agent version the SyncTarget's status holds. */
export function agentVersionOf(st: KubeObject): string | undefined {
  const v = statusOf(st).agentVersion
  return typeof v === 'string' ? v : undefined
}

/** Whether the stored status already holds `ready` and `agentVersion`. */
export function livenessHolds(
  st: KubeObject,
  want: { ready: WantedCondition; agentVersion: string | undefined }
): boolean {
  const generation = st.metadata.generation ?? 1
  return (
    agentVersionOf(st) === want.agentVersion &&
    conditionHolds(conditionsOf(statusOf(st)), SYNC_TARGET_READY, want.ready, generation)
  )
}

/**
 * The SyncTarget's status with `ready` and `agentVersion` (removed when undefined) and, when
 * given, `heartbeatAt` as lastSyncerHeartbeatTime; everything else as stored.
 */
export function livenessStatus(
  st: KubeObject,
  want: { ready: WantedCondition; agentVersion: string | undefined; heartbeatAt?: string },
  now: string
): JsonObject {
  const { agentVersion: _old, ...status } = statusOf(st)
  const stamp: ConditionStamp = { generation: st.metadata.generation ?? 1, now }
  const next: JsonObject = {
    ...status,
    conditions: withCondition(conditionsOf(status), SYNC_TARGET_READY, want.ready, stamp),
  }
  if (want.agentVersion !== undefined) next.agentVersion = want.agentVersion
  if (want.heartbeatAt !== undefined) next.lastSyncerHeartbeatTime = want.heartbeatAt
  return next
}
