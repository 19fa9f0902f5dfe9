/**
 * Confirming removals to the center. A desired entry marked `removing` is a tombstone: the center
 * wants the copy gone and waits for this agent to say the edge no longer has it. The agent never
 * applies a tombstone (selection.ts) and prunes what it owns under that key like any entry that
 * left (prune.ts); once the ownership record has nothing under the key — the object was deleted,
 * never created, or forgotten (built-in namespaces, create-only objects) — the key goes in the
 * report's `removed` list. An object the agent does not own (a foreign one in the way) is never
 * touched, and its removal is confirmed all the same: the copy is no longer the edge's business.
 * A delete the edge accepted counts as done even when edge finalizers keep the object a while.
 * Each confirmation is identified by key and the tombstone's rv (`<key>#<rv>`); the ids the center
 * accepted are remembered in the report state (report-state.ts `removed`) and forgotten once the
 * tombstone leaves the desired state, so a confirmation goes once per tombstone, not every poll.
 */
import type { ObjectRef } from '../edge/protocol.ts'
import type { DesiredCopy } from './desired-store.ts'
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
