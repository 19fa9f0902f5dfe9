/**
 * Writes what the summarize step owns in an EdgePlacement's status — `status.summary` and the
 * `Ready` condition (lib/summarize/ready-condition.ts) — in one status write, only when either
 * differs from the stored one (the summary as canonical JSON; the condition by status, reason,
 * message and observedGeneration). The placement is read again first, so the write carries a
 * current resourceVersion and keeps what the where and translate steps write in the same status
 * (specGeneration, matchingLocationCount, the `Translated` condition) as it is now; Ready is
 * computed over that fresh status. Ready follows kube's condition conventions
 * (lib/kube/conditions.ts): its lastTransitionTime changes only when its status does, its
 * observedGeneration is the generation the summary was computed for. A placement re-created meanwhile (another uid) is left to its own
 * run.
 */
import type { PlacementSummary } from '../../lib/apis/edge-summary.ts'
import { EDGE_PLACEMENTS } from '../../lib/apis/gvr.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import { timestamp } from '../../lib/hub/deps.ts'
import { conditionHolds, withCondition } from '../../lib/kube/conditions.ts'
import type { JsonObject, JsonValue, KubeObject } from '../../lib/kube/types.ts'
import { canonicalJson, isJsonObject } from '../../lib/patch/json-values.ts'
import {
  type ConditionWant,
  READY,
  type ReadyInput,
  readyCondition,
} from '../../lib/summarize/ready-condition.ts'

const TRANSLATED = 'Translated'

/** Ready's inputs other than what the placement's status says. */
export type ReadyFacts = Omit<
  ReadyInput,
  'generation' | 'specGeneration' | 'matchingLocationCount' | 'translated' | 'summary'
> & { generation: number }

const statusOf = (ep: KubeObject): JsonObject => {
  const s = ep.status as JsonValue | undefined
  return isJsonObject(s) ? s : {}
}

const conditionsOf = (status: JsonObject): JsonObject[] =>
  Array.isArray(status.conditions) ? status.conditions.filter(isJsonObject) : []

const num = (v: JsonValue | undefined) => (typeof v === 'number' ? v : undefined)

function wantOf(ep: KubeObject, summary: PlacementSummary, facts: ReadyFacts): ConditionWant {
  const status = statusOf(ep)
  const specGeneration = num(status.specGeneration)
  const matchingLocationCount = num(status.matchingLocationCount)
  const translated = conditionsOf(status).find((c) => c.type === TRANSLATED)
  return readyCondition({
    ...facts,
    summary,
    ...(specGeneration !== undefined ? { specGeneration } : {}),
    ...(matchingLocationCount !== undefined ? { matchingLocationCount } : {}),
    ...(translated ? { translated } : {}),
  })
}

function same(ep: KubeObject, summary: PlacementSummary, want: ConditionWant, generation: number) {
  const status = statusOf(ep)
  if (canonicalJson(status.summary ?? null) !== canonicalJson(summary)) return false
  return conditionHolds(conditionsOf(status), READY, want, generation)
}

/** True when it wrote. */
export async function writePlacementStatus(
  client: HubClient,
  spaceId: string,
  ep: KubeObject,
  summary: PlacementSummary,
  facts: ReadyFacts,
  now: () => Date
): Promise<boolean> {
  if (same(ep, summary, wantOf(ep, summary, facts), facts.generation)) return false
  const fresh = await client.get(spaceId, EDGE_PLACEMENTS, ep.metadata.name ?? '')
  if (!fresh || fresh.metadata.uid !== ep.metadata.uid || fresh.metadata.deletionTimestamp)
    return false
  const want = wantOf(fresh, summary, facts)
  if (same(fresh, summary, want, facts.generation)) return false
  const status = statusOf(fresh)
  const conditions = conditionsOf(status)
  const next: JsonObject = {
    ...status,
    summary: summary as unknown as JsonObject,
    conditions: withCondition(conditions, READY, want, facts.generation, timestamp(now())),
  }
  await client.updateStatus(spaceId, EDGE_PLACEMENTS, { ...fresh, status: next })
  return true
}
