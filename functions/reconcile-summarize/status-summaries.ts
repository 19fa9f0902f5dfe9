/**
 * User-specified summaries: for a Summarizer, the StatusSummary of the same name in the same
 * namespace, owned by it (controller ownerReference, so it goes with it), whose `summary` holds
 * the results (lib/summarize/aggregate.ts) over the copies of the placed objects the Summarizer
 * selects. Written only when the summary or the owner reference differs, with the stored
 * resourceVersion as precondition. A Summarizer whose spec does not parse (stored before its
 * validation existed) is skipped and logged.
 */

import { SummarizerSpecSchema, type SummaryResult } from '../../lib/apis/edge-summary.ts'
import { EDGE_API_VERSION } from '../../lib/apis/edge-v1alpha1.ts'
import { STATUS_SUMMARIES } from '../../lib/apis/gvr.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import type { KubeObject, OwnerReference } from '../../lib/kube/types.ts'
import type { Logger } from '../../lib/log.ts'
import { canonicalJson } from '../../lib/patch/json-values.ts'
import { type SummarizedCopy, summarize } from '../../lib/summarize/aggregate.ts'

export type SummaryDeps = { client: HubClient; log: Logger }

function ownerRef(summarizer: KubeObject): OwnerReference {
  return {
    apiVersion: EDGE_API_VERSION,
    kind: 'Summarizer',
    name: summarizer.metadata.name ?? '',
    uid: summarizer.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  }
}

/**
 * The results of `summarizer` over `copies` of `objects` placed objects, copies stale past its
 * own threshold or else `staleAfterMs` (the hub's); undefined if invalid.
 */
export function resultsOf(
  summarizer: KubeObject,
  objects: number,
  copies: readonly SummarizedCopy[],
  at: { nowMs: number; staleAfterMs: number }
): SummaryResult | undefined {
  const spec = SummarizerSpecSchema.safeParse(summarizer.spec)
  if (!spec.success) return undefined
  return {
    summarizerGeneration: summarizer.metadata.generation ?? 0,
    objects,
    ...summarize(spec.data, copies, at.nowMs, at.staleAfterMs),
  }
}

/** Makes the StatusSummary of `summarizer` hold `summary`; returns what it did, if anything. */
export async function writeStatusSummary(
  deps: SummaryDeps,
  spaceId: string,
  summarizer: KubeObject,
  summary: SummaryResult
): Promise<string | undefined> {
  const name = summarizer.metadata.name ?? ''
  const namespace = summarizer.metadata.namespace ?? ''
  const ref = ownerRef(summarizer)
  const existing = await deps.client.get(spaceId, STATUS_SUMMARIES, name, namespace)
  if (!existing) {
    await deps.client.create(spaceId, STATUS_SUMMARIES, {
      apiVersion: EDGE_API_VERSION,
      kind: 'StatusSummary',
      metadata: { name, namespace, ownerReferences: [ref] },
      summary,
    })
    return 'created'
  }
  const refs = existing.metadata.ownerReferences ?? []
  const others = refs.filter((r) => !r.controller && r.kind !== 'Summarizer')
  const wantRefs = [ref, ...others]
  if (
    canonicalJson(existing.summary ?? null) === canonicalJson(summary) &&
    canonicalJson(refs) === canonicalJson(wantRefs)
  )
    return undefined
  await deps.client.update(spaceId, STATUS_SUMMARIES, {
    ...existing,
    metadata: { ...existing.metadata, ownerReferences: wantRefs },
    summary,
  })
  return 'updated'
}

/** Logs a Summarizer that cannot be evaluated. */
export function skipInvalid(deps: SummaryDeps, spaceId: string, summarizer: KubeObject): void {
  deps.log.warn('summarizer skipped: invalid spec', {
    spaceId,
    namespace: summarizer.metadata.namespace,
    name: summarizer.metadata.name,
  })
}
