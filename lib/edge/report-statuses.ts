/**
 * The statuses and problems of a report, landed on the mailbox copies as copy states
 * (lib/store/projection-state.ts). A status report replaces the copy's state: status, the reported
 * generation (rendered as `status.observedGeneration`), the associated objects (omitted = none),
 * and clears any problem; a problem report sets the problem and keeps the rest. A report naming a
 * copy the mailbox does not hold, or a generation newer than the copy's (it is about an earlier
 * copy of that name, removed and placed again), is rejected. Only states whose content differs from the stored
 * one (canonical JSON) are written, so a repeated report writes nothing; they are written in
 * batches (one resourceVersion each) with the stored state's rv as precondition, and the copies
 * that lost a race are re-read and written once more before being rejected.
 * Requests: 1 GetItem (manifest) + 1 BatchGetItem per 100 copies named; when something changed,
 * per batch of up to 100 states 1 GetItem, 1 UpdateItem, one PutItem per state, 1 BatchWriteItem.
 */
import { entryKey } from '../store/projection-diff.ts'
import { copyStateContent } from '../store/projection-state.ts'
import type {
  CopyKey,
  CopyState,
  CopyStateWrite,
  CopyStateWriteResult,
  Manifest,
  ManifestEntry,
  ProjectionStore,
  StoredCopyState,
} from '../store/projection-types.ts'
import type { ObjectRef, Problem, StatusReport } from './protocol.ts'
import type { Outcome } from './report-outcome.ts'

/** Largest status plus associated list accepted for one copy, in JSON characters. */
export const STATE_JSON_LIMIT = 256 * 1024
/** A batch of state writes holds at most this many states and this much JSON. */
const BATCH_COUNT = 100
const BATCH_JSON = 300_000

type Target = {
  key: CopyKey
  entry: ManifestEntry
  refs: ObjectRef[]
  status?: StatusReport
  problem?: Problem
}

const refOf = ({ group, version, resource, namespace, name }: ObjectRef): ObjectRef => ({
  ...{ group, version, resource, namespace, name },
})
/** The copy an ObjectRef names (the version is not part of a copy's key). */
export const keyOf = (ref: ObjectRef): CopyKey => ({
  group: ref.group,
  resource: ref.resource,
  namespace: ref.namespace,
  name: ref.name,
})

function nextState(t: Target, stored: StoredCopyState | undefined): CopyState {
  const own = stored?.uid === t.entry.uid ? stored : undefined
  const state: CopyState = t.status
    ? {
        uid: t.entry.uid,
        status: t.status.status as CopyState['status'],
        observedGeneration: t.status.observedGeneration,
      }
    : { uid: t.entry.uid, status: own?.status ?? {} }
  if (!t.status && own?.observedGeneration !== undefined)
    state.observedGeneration = own.observedGeneration
  const associated = t.status ? t.status.associated : own?.associated
  if (associated?.length) state.associated = associated
  if (t.problem) state.problem = { reason: t.problem.reason, message: t.problem.message }
  return state
}

/** Writes in batches bounded by count and size; results in input order. */
async function writeBatches(
  projections: ProjectionStore,
  mailbox: string,
  writes: CopyStateWrite[]
): Promise<CopyStateWriteResult[]> {
  const batches: CopyStateWrite[][] = []
  let batch: CopyStateWrite[] = []
  let size = 0
  for (const w of writes) {
    const n = JSON.stringify(w.state).length
    if (batch.length > 0 && (batch.length >= BATCH_COUNT || size + n > BATCH_JSON)) {
      batches.push(batch)
      batch = []
      size = 0
    }
    batch.push(w)
    size += n
  }
  if (batch.length > 0) batches.push(batch)
  const results = await Promise.all(batches.map((b) => projections.putCopyStates(mailbox, b)))
  return results.flat()
}

function collect(
  out: Outcome,
  entries: Map<string, ManifestEntry>,
  statuses: readonly StatusReport[],
  problems: readonly Problem[]
): Map<string, Target> {
  const targets = new Map<string, Target>()
  const target = (item: ObjectRef): Target | undefined => {
    const ref = refOf(item)
    const k = entryKey(ref)
    const entry = entries.get(k)
    if (!entry) {
      out.rejected.push({ ref, message: `the mailbox has no projected copy ${k}` })
      return undefined
    }
    const t = targets.get(k) ?? { key: keyOf(ref), entry, refs: [] }
    targets.set(k, t)
    t.refs.push(ref)
    return t
  }
  for (const st of statuses) {
    const size = JSON.stringify(st.status).length + JSON.stringify(st.associated ?? []).length
    if (size > STATE_JSON_LIMIT) {
      const message = `the status and associated objects are too large: ${size} JSON characters exceeds ${STATE_JSON_LIMIT}`
      out.rejected.push({ ref: refOf(st), message })
      continue
    }
    // A generation this copy never had: the report is about an earlier copy of that name (it was
    // removed and placed again meanwhile); landing it would claim the new copy is observed.
    const generation = entries.get(entryKey(refOf(st)))?.generation ?? Number.POSITIVE_INFINITY
    if (st.observedGeneration > generation) {
      const message = `observedGeneration ${st.observedGeneration} is newer than the copy's generation ${generation}: the report is about an earlier copy of this name`
      out.rejected.push({ ref: refOf(st), message })
      continue
    }
    const t = target(st)
    if (t) t.status = st
  }
  for (const p of problems) {
    const t = target(p)
    if (t) t.problem = p
  }
  return targets
}

/**
 * The status half of one report: `statuses` and `problems` for copies of the mailbox;
 * `readManifest` (default: read it from the store) gives the manifest they are checked against.
 */
export type StatusesReport = {
  statuses: readonly StatusReport[]
  problems: readonly Problem[]
  readManifest?: () => Promise<Manifest | undefined>
}

export async function applyStatuses(
  projections: ProjectionStore,
  mailbox: string,
  report: StatusesReport
): Promise<Outcome> {
  const { statuses, problems, readManifest = () => projections.getManifest(mailbox) } = report
  const out: Outcome = { accepted: 0, rejected: [] }
  if (statuses.length === 0 && problems.length === 0) return out
  const manifest = await readManifest()
  const entries = new Map((manifest?.entries ?? []).map((e) => [entryKey(e), e]))
  let pending = [...collect(out, entries, statuses, problems).values()]
  const accept = (t: Target) => {
    out.accepted += t.refs.length
  }
  const reject = (t: Target, message: string) => {
    for (const ref of t.refs) out.rejected.push({ ref, message })
  }
  for (let attempt = 0; attempt < 2 && pending.length > 0; attempt++) {
    const stored = await projections.getCopyStates(
      mailbox,
      pending.map((t) => t.key)
    )
    const writing: Target[] = []
    const writes: CopyStateWrite[] = []
    for (const t of pending) {
      const before = stored.get(entryKey(t.key))
      const state = nextState(t, before)
      if (copyStateContent(state) === copyStateContent(before)) accept(t)
      else {
        writing.push(t)
        writes.push({ key: t.key, state, expectedRv: before?.rv ?? null })
      }
    }
    const results = await writeBatches(projections, mailbox, writes)
    pending = []
    results.forEach((r, i) => {
      const t = writing[i]!
      if (r.outcome === 'written') accept(t)
      else if (r.outcome === 'gone') reject(t, 'the projected copy was removed meanwhile')
      else pending.push(t)
    })
  }
  for (const t of pending) reject(t, 'the copy state kept changing meanwhile; report it again')
  return out
}
