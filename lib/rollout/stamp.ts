/**
 * The stamp a copy projected from a Rollout's revision carries (docs/architecture/placement.md,
 * "Rollout"): the annotation `edge.kcp.io/rollout-revision: "<rollout-name>/<revision>"`, put on
 * the revision's body before customization and projection, so the mailbox's copy, customized or
 * not, says which revision of which Rollout it is; the summarize step reads it from the mailbox
 * body to tell which revision an edge's copy is at. An `edge.kcp.io/` key travels with the copy
 * (lib/placement/annotations.ts `travels`); a copy is projected over its previous body without
 * the stamp (`withoutStamp`), so only a copy sent from a revision carries one. Pure.
 */
import type { KubeObject } from '../kube/types.ts'

export const ROLLOUT_REVISION_ANNOTATION = 'edge.kcp.io/rollout-revision'

/** A stamp's parts: the Rollout's name and the revision's number. */
export type RolloutStamp = { rollout: string; revision: number }

export const stampValue = (rollout: string, revision: number) => `${rollout}/${revision}`

/** The stamp a value says, or undefined when it is not `<name>/<positive number>`. */
export function parseStamp(value: string | undefined): RolloutStamp | undefined {
  const m = value === undefined ? null : /^([^/]+)\/([1-9]\d*)$/.exec(value)
  if (!m?.[1] || !m[2]) return undefined
  return { rollout: m[1], revision: Number(m[2]) }
}

/** The stamp an object carries, if any. */
export const stampOf = (o: Pick<KubeObject, 'metadata'>) =>
  parseStamp(o.metadata?.annotations?.[ROLLOUT_REVISION_ANNOTATION])

/** `body` with the stamp of `rollout`'s revision `revision` (a new object; `body` is untouched). */
export function stamped(body: KubeObject, rollout: string, revision: number): KubeObject {
  const annotations = {
    ...(body.metadata?.annotations ?? {}),
    [ROLLOUT_REVISION_ANNOTATION]: stampValue(rollout, revision),
  }
  return { ...body, metadata: { ...body.metadata, annotations } }
}

/**
 * `body` without a stamp (the same object when it has none): what a copy's previous body is
 * projected over, so a copy no longer sent from a revision (its Rollout gone, or no longer
 * governing it) does not keep a stale stamp by the merge rule that keeps a copy's other keys.
 */
export function withoutStamp<T extends KubeObject | undefined>(body: T): T {
  const annotations = body?.metadata?.annotations
  if (!body || !annotations || !(ROLLOUT_REVISION_ANNOTATION in annotations)) return body
  const { [ROLLOUT_REVISION_ANNOTATION]: _stamp, ...rest } = annotations
  return { ...body, metadata: { ...body.metadata, annotations: rest } }
}
