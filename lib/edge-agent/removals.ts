/**
 * Confirming removals to the center (the deletion lifecycle's state 3 at the edge:
 * lib/deletion/lifecycle.ts). A desired entry marked `removing` is a tombstone: the center
 * wants the copy gone and waits for this agent to say the edge no longer has it. The agent never
 * applies a tombstone (selection.ts) and prunes what it owns under that key like any entry that
 * left (prune.ts); once the ownership record has nothing under the key — the object was deleted,
 * never created, or forgotten (built-in namespaces, create-only objects) — the key goes in the
 * report's `removed` list. An object the agent does not own (a foreign one in the way) is never
 * touched, and its removal is confirmed all the same: the copy is no longer the edge's business.
 * An object the agent deleted that edge finalizers still hold (deletionTimestamp set, the agent's
 * `edge.kcp.io/downsynced` marker on it) is not confirmed until it is really gone: one GET per
 * such candidate per poll (`stillTerminating`); a failed GET holds the confirmation too.
 * Each confirmation is identified by key and the tombstone's rv (`<key>#<rv>`); the ids the center
 * accepted are remembered in the report state (report-state.ts `removed`) and forgotten once the
 * tombstone leaves the desired state, so a confirmation goes once per tombstone, not every poll.
 */
import { DOWNSYNCED_ANNOTATION, type ObjectRef } from '../edge/protocol.ts'
import type { DesiredCopy } from './desired-store.ts'
import type { EdgeKube } from './kube-client.ts'
import type { Owned } from './ownership.ts'
import { refKey, refOf } from './refs.ts'
import type { ReportState } from './report-state.ts'

export type RemovedItem = { key: string; id: string; ref: ObjectRef }

const idOf = (e: DesiredCopy['entries'][number]) => `${refKey(e)}#${e.rv}`

/** The tombstones of `copy` the edge no longer has and the center has not accepted yet. */
export function removalsToConfirm(
  copy: DesiredCopy,
  owned: Owned,
  state: ReportState
): RemovedItem[] {
  const accepted = new Set(state.removed ?? [])
  return copy.entries
    .filter((e) => e.removing && !owned.has(refKey(e)) && !accepted.has(idOf(e)))
    .map((e) => ({ key: refKey(e), id: idOf(e), ref: refOf(e) }))
}

/** The report state without accepted confirmations of tombstones `copy` no longer holds. */
export function keepCurrentRemovals(state: ReportState, copy: DesiredCopy): ReportState {
  if (!state.removed?.length) return state
  const current = new Set(copy.entries.filter((e) => e.removing).map(idOf))
  const removed = state.removed.filter((id) => current.has(id))
  const { removed: _, ...rest } = state
  return removed.length > 0 ? { ...rest, removed } : rest
}

/** The candidates whose edge object is not terminating under the agent's marker (checked by GET). */
export async function goneAtEdge(
  kube: Pick<EdgeKube, 'get'>,
  items: readonly RemovedItem[]
): Promise<RemovedItem[]> {
  const out: RemovedItem[] = []
  for (const item of items) {
    try {
      const obj = await kube.get(item.ref)
      const m = obj?.metadata
      if (m?.deletionTimestamp && m.annotations?.[DOWNSYNCED_ANNOTATION] !== undefined) continue
      out.push(item)
    } catch {
      // Unknown: not confirmed this poll.
    }
  }
  return out
}
