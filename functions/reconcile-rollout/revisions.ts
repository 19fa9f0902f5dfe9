/**
 * The rollout step's revisions (docs/architecture/placement.md, "Rollout"): from the governed
 * content now and the stored records, the newest revision — cutting revision 1 at once when there
 * is none (what the objects are when the Rollout is created), cutting N+1 once a new content has
 * stood for the settle time, and otherwise remembering the settling content (one write when it is
 * new, with the version read as precondition) and when to look again. Which records to keep
 * afterwards is `keptRevisions`: every revision the status names and the newest.
 */
import type { RolloutStatus } from '../../lib/apis/edge-rollout.ts'
import { isApiError } from '../../lib/errors.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { cutDecision, type RevisionEntry, type RevisionRecord } from '../../lib/rollout/revision.ts'
import type { RevisionStore, RolloutRef } from '../../lib/rollout/revision-store.ts'

export type Revisions = {
  /** Every stored record, oldest first (the one cut now included). */
  records: RevisionRecord[]
  newest: RevisionRecord
  /** Set when a revision was cut by this run. */
  cut?: number
  /** When a settling content will be due (epoch ms). */
  wakeAtMs?: number
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')

export async function nextRevision(
  store: RevisionStore,
  ref: RolloutRef,
  content: { entries: RevisionEntry[]; bodies: Map<string, KubeObject> },
  nowMs: number
): Promise<Revisions> {
  const records = await store.revisions(ref)
  const newest = records[records.length - 1]
  const cut = async (number: number) => {
    const record = { number, cutAt: iso(nowMs), objects: content.entries }
    const stored = await store.cut(ref, record, content.bodies)
    return { records: [...records, stored], newest: stored, cut: stored.number }
  }
  if (!newest) return cut(1)
  const settling = await store.settling(ref)
  const decision = cutDecision({
    newest,
    entries: content.entries,
    settling: settling?.value,
    nowMs,
  })
  if (decision.kind === 'same') return { records, newest }
  if (decision.kind === 'cut') return cut(newest.number + 1)
  if (settling?.value.contentKey !== decision.settling.contentKey) {
    try {
      await store.settle(ref, decision.settling, settling?.version ?? null)
    } catch (e) {
      // Another run remembered a content first: look again soon, as that run will.
      if (!(isApiError(e) && e.code === 409)) throw e
    }
  }
  return { records, newest, wakeAtMs: decision.wakeAtMs }
}

/** The revisions a status names (completed, in flight, each wave's and what it held) and `newest`. */
export function keptRevisions(status: RolloutStatus, newest: number): Set<number> {
  const keep = new Set<number>([newest])
  const add = (n: number | undefined) => {
    if (n !== undefined && n > 0) keep.add(n)
  }
  add(status.completedRevision)
  add(status.revision)
  for (const w of status.waves ?? []) {
    add(w.revision)
    add(w.from)
  }
  return keep
}
