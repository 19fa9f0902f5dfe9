/**
 * Writes what the summarize step owns in an EdgePlacement's status — `status.summary` and the
 * `Ready` condition (lib/summarize/ready-condition.ts) — as one server-side apply to /status under
 * its own field manager (lib/reconcile/placement-status.ts), only when either differs from the
 * placement as the batch read it (the summary as canonical JSON; the condition by status, reason,
 * message and observedGeneration). The where and translate steps' fields (specGeneration,
 * matchingLocationCount, the `Translated` condition) are Ready's inputs, read from that same
 * placement, never written here: their writes wake this step's key (the relay), so a Ready computed
 * over an older input is recomputed. Ready follows kube's condition conventions
 * (lib/kube/conditions.ts): its lastTransitionTime changes only when its status does, its
 * observedGeneration is the generation the summary was computed for. A placement re-created
 * meanwhile (another uid) is left to its own run.
 */
import type { EdgePlacementObject } from '../../lib/apis/edge-objects.ts'
import type { PlacementSummary } from '../../lib/apis/edge-summary.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import { conditionFor, conditionHolds } from '../../lib/kube/conditions.ts'
import { timestamp } from '../../lib/kube/time.ts'
import { canonicalJson } from '../../lib/patch/json-values.ts'
import { applyPlacementStatus } from '../../lib/reconcile/placement-status.ts'
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

function wantOf(
  ep: EdgePlacementObject,
  summary: PlacementSummary,
  facts: ReadyFacts
): ConditionWant {
  const { specGeneration, matchingLocationCount, conditions } = ep.status ?? {}
  const translated = conditions?.find((c) => c.type === TRANSLATED)
  return readyCondition({
    ...facts,
    summary,
    ...(specGeneration !== undefined ? { specGeneration } : {}),
    ...(matchingLocationCount !== undefined ? { matchingLocationCount } : {}),
    ...(translated ? { translated } : {}),
  })
}

function same(
  ep: EdgePlacementObject,
  summary: PlacementSummary,
  want: ConditionWant,
  generation: number
) {
  if (canonicalJson(ep.status?.summary ?? null) !== canonicalJson(summary)) return false
  return conditionHolds(ep.status?.conditions ?? [], READY, want, generation)
}

/** One summarize write: the placement as the batch decoded it, and what it should now say. */
export type PlacementStatusWant = {
  spaceId: string
  ep: EdgePlacementObject
  summary: PlacementSummary
  facts: ReadyFacts
  now: () => Date
}

/**
 * Applies the summary and Ready (server-side apply as `edgeplane-summarize`, owning those two
 * and nothing else); true when it applied, false when both already hold or the placement was
 * re-created since it was read.
 */
export async function writePlacementStatus(
  client: HubClient,
  w: PlacementStatusWant
): Promise<boolean> {
  const { spaceId, ep, summary, facts, now } = w
  const want = wantOf(ep, summary, facts)
  if (same(ep, summary, want, facts.generation)) return false
  const ready = conditionFor(ep.status?.conditions ?? [], READY, want, {
    generation: facts.generation,
    now: timestamp(now()),
  })
  return applyPlacementStatus(client, {
    spaceId,
    ep,
    writer: 'summarize',
    status: {
      summary,
      conditions: [ready],
    },
  })
}
