/**
 * Writes an EdgePlacement's `status.summary` when it differs (canonical JSON) from the stored
 * one: the placement is read again first, so the write carries a current resourceVersion and the
 * fields the where and translate steps keep in the same status (specGeneration,
 * matchingLocationCount, conditions) are kept as they are now; a placement re-created meanwhile
 * (another uid) is left to its own run.
 */
import type { PlacementSummary } from '../../lib/apis/edge-summary.ts'
import { EDGE_PLACEMENTS } from '../../lib/apis/gvr.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import type { JsonObject, JsonValue, KubeObject } from '../../lib/kube/types.ts'
import { canonicalJson, isJsonObject } from '../../lib/patch/json-values.ts'

const statusOf = (ep: KubeObject): JsonObject => {
  const s = ep.status as JsonValue | undefined
  return isJsonObject(s) ? s : {}
}

const same = (ep: KubeObject, summary: PlacementSummary) =>
  canonicalJson(statusOf(ep).summary ?? null) === canonicalJson(summary)

/** True when it wrote. */
export async function writePlacementSummary(
  client: HubClient,
  spaceId: string,
  ep: KubeObject,
  summary: PlacementSummary
): Promise<boolean> {
  if (same(ep, summary)) return false
  const fresh = await client.get(spaceId, EDGE_PLACEMENTS, ep.metadata.name ?? '')
  if (!fresh || fresh.metadata.uid !== ep.metadata.uid || fresh.metadata.deletionTimestamp)
    return false
  if (same(fresh, summary)) return false
  const status = { ...statusOf(fresh), summary: summary as unknown as JsonObject }
  await client.updateStatus(spaceId, EDGE_PLACEMENTS, { ...fresh, status })
  return true
}
