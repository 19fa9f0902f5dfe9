/**
 * The deletion lifecycle (lib/deletion/lifecycle.ts) as the summarize step sees it, for one
 * workload space: the mailboxes that may hold copies sourced from the space — the current
 * destinations of all its placements (the caller passes only its own placement's when no finalizer
 * can be lifted, which is all the counts need) and those its departures record names
 * (lib/deletion/departures.ts: every mailbox holding tombstones sourced from the space, including
 * those that are no longer destinations) — read through the batch's reads. A mailbox whose
 * SyncTarget is gone (or that no longer exists) holds nothing: that is the "SyncTarget gone"
 * exception; it is unlisted from the record. From their manifests: per placement the tombstones
 * sourced from it (its `removing` pairs, wherever they are), whether some mailbox still holds an
 * entry, live or tombstone, sourced from the space for a key (what the source finalizer waits for;
 * an entry without recorded sources counts, to be safe), and whether removals are pending at a live
 * destination (the run then asks to be run again soon: an edge's confirmation wakes translate,
 * whose DELETED event may reach no placement once the destination left). `departedObjects` tells
 * which objects nothing waits for any more (reconcile-release-finalizers.ts lifts their finalizer).
 */
import { readDepartures, removeDeparture } from '../../lib/deletion/departures.ts'
import { hasEdgeRemovalFinalizer } from '../../lib/deletion/lifecycle.ts'
import { mapLimit } from '../../lib/map-limit.ts'
import type { SourceObject } from '../../lib/placement/types.ts'
import { parseMailboxName } from '../../lib/reconcile/keys.ts'
import { entryKey } from '../../lib/store/projection-diff.ts'
import type { CopyKey, ManifestEntry } from '../../lib/store/projection-types.ts'
import type { KvStore } from '../../lib/store/types.ts'
import { isLive, type Liveness } from '../../lib/summarize/liveness.ts'
import { heardAt, type MailboxView, type Reads } from './reads.ts'
import { objectKey } from './scope.ts'

/** How soon a run with removals pending at a live destination asks to run again. */
export const REMOVAL_RECHECK_MS = 5_000

export type RemovingPair = { key: CopyKey; mailbox: string }

export type Removals = {
  /** Tombstones sourced from this space whose sources name `placement`. */
  removingOf(placement: string): RemovingPair[]
  /** Whether some mailbox holds an entry (live or tombstone) sourced from the space for `key`. */
  holds(key: string): boolean
  /** Some tombstone sourced from the space waits at a live destination. */
  pendingLive: boolean
  /** The mailboxes the departures record lists (those that still exist). */
  departed: string[]
  /** The space has a departures record (possibly listing none). */
  recorded: boolean
}

const fromSpace = (e: ManifestEntry, spaceId: string) =>
  !e.sources || e.sources.some((s) => s.space === spaceId)

/** What the removals read of one mailbox's manifest (a summarize page keeps it so). */
export type Hold = { held: string[]; removing: { key: CopyKey; placements: string[] }[] }

/** The entries of `view` sourced from the space: every key (sorted), and the tombstones. */
export function holdOf(view: MailboxView, spaceId: string): Hold {
  const hold: Hold = { held: [], removing: [] }
  for (const e of view.entries.values()) {
    if (!fromSpace(e, spaceId)) continue
    hold.held.push(entryKey(e))
    if (!e.removing) continue
    const key = { group: e.group, resource: e.resource, namespace: e.namespace, name: e.name }
    const placements = (e.sources ?? []).flatMap((s) => (s.space === spaceId ? s.placements : []))
    hold.removing.push({ key, placements })
  }
  hold.held.sort()
  return hold
}

/** A mailbox and what it holds; no hold: no view (gone, not Ready, its SyncTarget gone). */
export type MailboxHold = { name: string; hold: Hold | undefined }

type Scanned = {
  held: Set<string>
  byPlacement: Map<string, RemovingPair[]>
  /** Mailboxes holding a tombstone sourced from the space. */
  waiting: Set<string>
}

/** What the mailboxes hold sourced from the space. */
function scan(holds: readonly MailboxHold[]): Scanned {
  const out: Scanned = { held: new Set(), byPlacement: new Map(), waiting: new Set() }
  for (const { name, hold } of holds) {
    for (const k of hold?.held ?? []) out.held.add(k)
    for (const { key, placements } of hold?.removing ?? []) {
      out.waiting.add(name)
      for (const p of placements) {
        out.byPlacement.set(p, [...(out.byPlacement.get(p) ?? []), { key, mailbox: name }])
      }
    }
  }
  return out
}

/** A mailbox whose SyncTarget is gone is going too: it holds nothing to wait for. */
export async function syncTargetExists(
  reads: Pick<Reads, 'inventory'>,
  mailbox: string
): Promise<boolean> {
  const dest = parseMailboxName(mailbox)
  if (!dest) return false
  return (await reads.inventory(dest.inventorySpaceId)).syncTargets.has(dest.syncTargetUid)
}

/** The space's departures record (lib/deletion/departures.ts). */
export type Departures = Awaited<ReturnType<typeof readDepartures>>

export type RemovalsAt = {
  spaceId: string
  destinations: readonly string[]
  nowMs: number
  rule: Liveness
  /** The space's departures record, when already read. */
  record?: Departures
}

export async function observeRemovals(
  deps: { kv: KvStore },
  reads: Reads,
  at: RemovalsAt
): Promise<Removals> {
  const record = at.record ?? (await readDepartures(deps.kv, at.spaceId))
  const names = [...new Set([...at.destinations, ...record.mailboxes])].sort()
  const holds = await mapLimit(names, 16, async (name): Promise<MailboxHold> => {
    const view = (await syncTargetExists(reads, name)) ? await reads.mailbox(name) : undefined
    return { name, hold: view ? holdOf(view, at.spaceId) : undefined }
  })
  return removalsOf(deps, reads, { ...at, record, holds })
}

/**
 * The removals from what the mailboxes of the destinations and of the departures record hold
 * (`holds`, in name order): the departed ones that hold nothing any more are unlisted from the
 * record, and whether a tombstone waits at a live destination is read from the inventory.
 */
export async function removalsOf(
  deps: { kv: KvStore },
  reads: Pick<Reads, 'inventory'>,
  at: RemovalsAt & { record: Departures; holds: readonly MailboxHold[] }
): Promise<Removals> {
  const { spaceId, nowMs, rule, record, holds } = at
  const departed = record.mailboxes
  const vanished = departed.filter((n) => !holds.find((h) => h.name === n)?.hold)
  if (vanished.length > 0) {
    for (const name of vanished) await removeDeparture(deps.kv, [spaceId], name)
  }
  const { held, byPlacement, waiting } = scan(holds)
  const live = await mapLimit([...waiting], 8, async (name) => {
    const dest = parseMailboxName(name)
    if (!dest) return false
    const inv = await reads.inventory(dest.inventorySpaceId)
    return isLive(heardAt(inv, dest.syncTargetUid), nowMs, rule.staleAfterMs)
  })
  return {
    removingOf: (placement) => byPlacement.get(placement) ?? [],
    holds: (key) => held.has(key),
    pendingLive: live.some((l) => l),
    departed: departed.filter((n) => !vanished.includes(n)),
    recorded: record.recorded,
  }
}

export const hasRemovalFinalizer = (o: SourceObject) => hasEdgeRemovalFinalizer(o.object.metadata)

/**
 * The removing pairs of `placement` not already among its (object, destination) pairs, counted per
 * object key: tombstones at mailboxes that are no longer its destinations, or of objects it no
 * longer selects (deleted at the source, unselected).
 */
export function departingCounts(
  removals: Removals,
  placement: string,
  selected: ReadonlySet<string>,
  destinations: ReadonlySet<string>
): { key: CopyKey; count: number }[] {
  const out = new Map<string, { key: CopyKey; count: number }>()
  for (const p of removals.removingOf(placement)) {
    const k = entryKey(p.key)
    if (selected.has(k) && destinations.has(p.mailbox)) continue
    const row = out.get(k) ?? { key: p.key, count: 0 }
    row.count++
    out.set(k, row)
  }
  return [...out.values()].sort((a, b) => (entryKey(a.key) < entryKey(b.key) ? -1 : 1))
}

/** The space's objects carrying the finalizer that are terminating or placed nowhere. */
export type Departed = {
  /** Those no mailbox holds a copy of any more: their finalizer can be lifted. */
  release: SourceObject[]
  /** Those some mailbox still holds a copy of (live or tombstone). */
  waiting: number
  /** Those that could be released but for `hold`. */
  held: number
}

/**
 * Which of the space's objects that carry the finalizer and are terminating or placed nowhere may
 * lose it: those no mailbox holds a copy of sourced from the space; the others keep waiting. With
 * `hold` (some placement of the space may have copies in mailboxes not read), none may: those that
 * would be are counted as `held`. Pure.
 */
export function departedObjects(at: {
  objects: readonly SourceObject[]
  placed: (o: SourceObject) => boolean
  removals: Pick<Removals, 'holds'>
  hold?: boolean
}): Departed {
  const out: Departed = { release: [], waiting: 0, held: 0 }
  for (const o of at.objects) {
    if (!hasRemovalFinalizer(o)) continue
    if (!o.object.metadata.deletionTimestamp && at.placed(o)) continue
    if (at.removals.holds(objectKey(o))) out.waiting++
    else if (at.hold) out.held++
    else out.release.push(o)
  }
  return out
}
