/**
 * A Rollout's revisions as content (docs/architecture/placement.md, "Rollout"): the objects it
 * governs, each named by its copy key (group, resource, namespace, name: a copy keeps its key
 * when its version changes) and hashed over what translation reads of it
 * (lib/placement/translate-input.ts) less its status (`revisionInput`), so the control plane's
 * own writes on a workload object (counts, finalizers, its managedFields entry, the status the
 * edges return, which changes with every report) cut no revision. Whether the governed content
 * moved, and when a move has settled long enough to be cut (a `kubectl apply` of ten objects is
 * one revision): a new content is remembered with the time it was first seen, and cut once it
 * has stood for the settle time; a content that moves again starts the wait over. Pure.
 */

import { fnv1a } from '../fnv.ts'
import type { KubeObject } from '../kube/types.ts'
import { copyKeyOf } from '../placement/copy-key.ts'
import { translateInput } from '../placement/translate-input.ts'
import type { SourceObject } from '../placement/types.ts'
import { contentHash } from '../store/projection-hash.ts'

/**
 * What a revision holds of a governed object: what translation reads of it without its status —
 * the status is the edges' (returned by the summarize step), never sent to them, and moves with
 * every report.
 */
export function revisionInput(obj: KubeObject): KubeObject {
  const { status: _status, ...rest } = translateInput(obj)
  return rest as KubeObject
}

/** How long a new governed content must stand before it is cut (ms). */
export const SETTLE_MS = 5_000

/**
 * One governed object in a revision: its copy key as one string, its content hash, and the
 * resource version and scope it was read at (so a revision's object can be sent again as read).
 */
export type RevisionEntry = { key: string; hash: string; version: string; namespaced: boolean }

/** A stored revision: its number, when it was cut, and its objects sorted by key. */
export type RevisionRecord = { number: number; cutAt: string; objects: RevisionEntry[] }

/** What the step remembers while a new content settles: a short key of it, since when. */
export type Settling = { contentKey: string; sinceMs: number }

export const revisionKeyOf = (o: SourceObject) => {
  const k = copyKeyOf(o)
  return `${k.group}/${k.resource}/${k.namespace}/${k.name}`
}

/** The governed objects' entries (sorted by key) and their bodies by hash. */
export async function governedContent(objects: readonly SourceObject[]): Promise<{
  entries: RevisionEntry[]
  bodies: Map<string, KubeObject>
}> {
  const bodies = new Map<string, KubeObject>()
  const entries: RevisionEntry[] = []
  for (const o of objects) {
    const body = revisionInput(o.object)
    const hash = await contentHash(body)
    bodies.set(hash, body)
    entries.push({ key: revisionKeyOf(o), hash, version: o.version, namespaced: o.namespaced })
  }
  entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  return { entries, bodies }
}

/** One string for a whole content (its sorted entries). */
export const contentKeyOf = (entries: readonly RevisionEntry[]) =>
  entries.map((e) => `${e.key}=${e.hash}`).join('\n')

export type CutDecision =
  | { kind: 'same' }
  | { kind: 'settling'; settling: Settling; wakeAtMs: number }
  | { kind: 'cut' }

/**
 * Whether the governed content `entries` is a new revision now: the same as the newest revision's
 * (nothing to do), still settling (remember it, look again then), or ready to cut.
 */
export function cutDecision(at: {
  newest: RevisionRecord | undefined
  entries: readonly RevisionEntry[]
  settling: Settling | undefined
  nowMs: number
  settleMs?: number
}): CutDecision {
  const { newest, entries, settling, nowMs, settleMs = SETTLE_MS } = at
  const content = contentKeyOf(entries)
  if (newest && contentKeyOf(newest.objects) === content) return { kind: 'same' }
  if (!newest) return { kind: 'cut' }
  const key = `${fnv1a(content).toString(16)}:${content.length}`
  const since = settling?.contentKey === key ? settling.sinceMs : nowMs
  if (nowMs - since >= settleMs) return { kind: 'cut' }
  return {
    kind: 'settling',
    settling: { contentKey: key, sinceMs: since },
    wakeAtMs: since + settleMs,
  }
}
