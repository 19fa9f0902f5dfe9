/**
 * The deletion lifecycle's state 3 at the center (lib/deletion/lifecycle.ts): the `removed` list
 * of a report (protocol.ts), tombstones the edge says it no longer has, landed
 * as copy states `{gone: true}` of the tombstone's uid (lib/store/projection-state.ts). The
 * translate step drops a tombstone whose state says gone (a DELETED event in the mailbox). A ref
 * whose entry is already absent is accepted (the removal is complete: a repeated confirmation); a
 * ref naming a live entry (not removing, e.g. placed again meanwhile) is rejected, so nothing is
 * recorded against a copy the center still wants. A state already saying gone for that uid is not
 * written again; a write that lost a race with another state write is retried once.
 */
import { isConfirmedGone } from '../deletion/lifecycle.ts'
import { entryKey } from '../store/projection-diff.ts'
import type {
  CopyKey,
  CopyStateWrite,
  Manifest,
  ManifestEntry,
  ProjectionStore,
} from '../store/projection-types.ts'
import type { ObjectRef } from './protocol.ts'
import type { Outcome } from './report-outcome.ts'
import { keyOf } from './report-statuses.ts'

export async function applyRemovals(
  projections: ProjectionStore,
  mailbox: string,
  removed: readonly ObjectRef[],
  readManifest: () => Promise<Manifest | undefined>
): Promise<Outcome> {
  const out: Outcome = { accepted: 0, rejected: [] }
  if (removed.length === 0) return out
  const manifest = await readManifest()
  const entries = new Map((manifest?.entries ?? []).map((e) => [entryKey(e), e]))
  const targets = new Map<string, { key: CopyKey; entry: ManifestEntry; refs: ObjectRef[] }>()
  for (const ref of removed) {
    const k = entryKey(keyOf(ref))
    const entry = entries.get(k)
    if (!entry) out.accepted++
    else if (!entry.removing) {
      out.rejected.push({ ref, message: `the copy ${k} is not being removed` })
    } else {
      const t = targets.get(k) ?? { key: keyOf(ref), entry, refs: [] }
      t.refs.push(ref)
      targets.set(k, t)
    }
  }
  let pending = [...targets.values()]
  for (let attempt = 0; attempt < 2 && pending.length > 0; attempt++) {
    const stored = await projections.getCopyStates(
      mailbox,
      pending.map((t) => t.key)
    )
    const writes: CopyStateWrite[] = []
    const writing: typeof pending = []
    for (const t of pending) {
      const before = stored.get(entryKey(t.key))
      if (isConfirmedGone(t.entry, before)) {
        out.accepted += t.refs.length
        continue
      }
      writing.push(t)
      const state = { uid: t.entry.uid, status: {}, gone: true }
      writes.push({ key: t.key, state, expectedRv: before?.rv ?? null })
    }
    const results = writes.length > 0 ? await projections.putCopyStates(mailbox, writes) : []
    const retry: typeof pending = []
    results.forEach((r, i) => {
      const t = writing[i]!
      if (r.outcome === 'written' || r.outcome === 'gone') out.accepted += t.refs.length
      else if (attempt === 0) retry.push(t)
      else for (const ref of t.refs) out.rejected.push({ ref, message: 'conflict; send it again' })
    })
    pending = retry
  }
  return out
}
