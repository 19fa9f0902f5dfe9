/**
 * What one page keeps of the mailboxes it read (page-read.ts reads them, page-codec.ts stores
 * them): per mailbox, the facts the summaries take from it, in a form whose size grows with what
 * differs, not with the number of pairs — so a page of 200 mailboxes × 100 copies, nearly all alike,
 * is a few kilobytes:
 * - `copies`: the distinct copies held (a manifest entry sourced from the space, and its state),
 *   and per copy key asked for, which of them each mailbox holds (`pairs`, run-length encoded over
 *   the page's mailboxes; 0: none — not in the mailbox, not the space's, or the mailbox unread).
 *   A copy keeps what the summaries read of it; what names one copy and no other is replaced
 *   (the entry's rv, uid and creation time, the state's rv and associated objects), the state's
 *   uid by whether it is the entry's (`KEPT_UID` or `OTHER_UID`), which is all that is compared.
 * - `holds`: per mailbox (run-length encoded, 0: nothing), what the removals read of its manifest
 *   (removals.ts `holdOf`): the keys of every entry sourced from the space, and its tombstones
 *   with the space's placements that sourced them.
 * - per mailbox its Ready space's id (null: none, so it was not read), the version of its content
 *   read and its report mark read before its states (page-freshness.ts compares them).
 * - `upsync`: the page's part of its placement's upsync summary (upsync-summary.ts).
 * Pure.
 */
import type { PlacementSummary } from '../../../lib/apis/edge-summary.ts'
import type { ManifestEntry, StoredCopyState } from '../../../lib/store/projection-types.ts'
import type { MailboxView } from '../reads.ts'
import { type Hold, holdOf } from '../removals.ts'
import type { MailboxAsk } from './plan.ts'

/** The uid a kept entry has, and its state when the state was the entry's copy's. */
export const KEPT_UID = 'copy'
/** The uid a kept state has when it was of another copy (an earlier one of the same key). */
export const OTHER_UID = 'other'

/** A copy as a page keeps it (no entry: nothing held). */
export type KeptCopy = { entry?: ManifestEntry; state?: StoredCopyState }

export type Upsync = NonNullable<PlacementSummary['upsync']>

export type PageFacts = {
  /** The plan's ask of the page (plan.ts) the facts were read for. */
  ask: string
  /** When the reads began (epoch ms). */
  readAt: number
  /** Read again because the page had changed since its last read (paged-input.ts). */
  again?: boolean
  /** The `manifests` and `spaces` epochs read before the page (undefined: unknown). */
  epochs: { manifests?: number; spaces?: number }
  mailboxes: string[]
  /** Per mailbox, the id of its space when Ready (only then is it read), else null. */
  spaces: (string | null)[]
  /** Per mailbox, the content version read with its manifest (null: no manifest). */
  content: (number | null)[]
  /** Per mailbox, its report mark read before its states (null: none). */
  reports: (string | null)[]
  /** Distinct copies; index 0 is "nothing held". */
  copies: KeptCopy[]
  /** Per copy key asked for: [copy, run, copy, run, ...] over the page's mailboxes. */
  pairs: Record<string, number[]>
  /** Distinct holds; index 0 is "nothing held". */
  holds: Hold[]
  /** [hold, run, ...] over the page's mailboxes. */
  holdOf: number[]
  upsync?: Upsync
}

/** `values` run-length encoded: [value, run, value, run, ...]. */
export function runs(values: readonly number[]): number[] {
  const out: number[] = []
  for (const v of values) {
    const last = out.length - 1
    if (last > 0 && out[last - 1] === v) out[last] = (out[last] ?? 0) + 1
    else out.push(v, 1)
  }
  return out
}

/** The values of `encoded` (runs()), `length` of them (0 past the end). */
export function unrun(encoded: readonly number[], length: number): Int32Array {
  const out = new Int32Array(length)
  let at = 0
  for (let i = 0; i + 1 < encoded.length && at < length; i += 2) {
    const v = encoded[i] ?? 0
    const end = Math.min(length, at + (encoded[i + 1] ?? 0))
    out.fill(v, at, end)
    at = end
  }
  return out
}

/**
 * A table of distinct values by `keyOf`, index 0 given. Two values with one key must be equal;
 * two equal values with different keys are only kept twice (a key is cheap, not canonical).
 */
function table<T>(zero: T, keyOf: (v: T) => string) {
  const list: T[] = [zero]
  const ids = new Map<string, number>([[keyOf(zero), 0]])
  return {
    list,
    id(v: T): number {
      const k = keyOf(v)
      let id = ids.get(k)
      if (id === undefined) {
        id = list.length
        list.push(v)
        ids.set(k, id)
      }
      return id
    },
  }
}

/** A kept copy's key: its entry's fields one by one (all but `sources` plain), its state as JSON. */
function copyKey({ entry: e, state }: KeptCopy): string {
  if (!e) return ''
  const entry = [e.group, e.version, e.resource, e.namespace, e.name, e.hash, e.specHash]
  const rest = JSON.stringify([e.generation, e.removing ?? null, e.sources ?? null])
  return `${entry.join('\u0000')}\u0000${rest}\u0000${state ? JSON.stringify(state) : ''}`
}

const holdKey = (h: Hold) => `${h.held.join('\u0000')}\u0001${JSON.stringify(h.removing)}`

const fromSpace = (e: ManifestEntry, spaceId: string) =>
  !e.sources || e.sources.some((s) => s.space === spaceId)

function keptEntry(e: ManifestEntry): ManifestEntry {
  const { added: _added, ...rest } = e
  return { ...rest, rv: 0, uid: KEPT_UID, created: '' }
}

function keptState(s: StoredCopyState, e: ManifestEntry): StoredCopyState {
  const { associated: _associated, ...rest } = s
  return { ...rest, rv: 0, uid: s.uid === e.uid ? KEPT_UID : OTHER_UID }
}

export type PageReads = {
  ask: string
  readAt: number
  again?: boolean
  epochs: PageFacts['epochs']
  spaceId: string
  asks: readonly MailboxAsk[]
  /** Per mailbox of `asks`, its view (undefined: no Ready space). */
  views: readonly (MailboxView | undefined)[]
  /** Per mailbox, its report mark as read before the states. */
  reports: readonly (string | undefined)[]
  /** The states read, by mailbox space id, then entryKey. */
  states: ReadonlyMap<string, ReadonlyMap<string, StoredCopyState>>
  upsync?: Upsync
}

/** The copies a mailbox holds of the keys asked for there, sourced from the space. */
export function heldCopies(ask: MailboxAsk, view: MailboxView | undefined, spaceId: string) {
  return ask.keys.flatMap((k) => {
    const entry = view?.entries.get(k)
    return entry && fromSpace(entry, spaceId) ? [{ key: k, entry }] : []
  })
}

export function pageFacts(r: PageReads): PageFacts {
  const copies = table<KeptCopy>({}, copyKey)
  const holds = table<Hold>({ held: [], removing: [] }, holdKey)
  const perKey = new Map<string, number[]>()
  const holdIds: number[] = []
  r.asks.forEach((ask, i) => {
    const view = r.views[i]
    const states = view ? r.states.get(view.space.id) : undefined
    for (const k of ask.keys) {
      const entry = view?.entries.get(k)
      const state = entry ? states?.get(k) : undefined
      const kept: KeptCopy =
        entry && fromSpace(entry, r.spaceId)
          ? { entry: keptEntry(entry), ...(state ? { state: keptState(state, entry) } : {}) }
          : {}
      const list = perKey.get(k) ?? new Array<number>(r.asks.length).fill(0)
      list[i] = copies.id(kept)
      perKey.set(k, list)
    }
    holdIds.push(view ? holds.id(holdOf(view, r.spaceId)) : 0)
  })
  const pairs: Record<string, number[]> = {}
  for (const [k, list] of perKey) pairs[k] = runs(list)
  return {
    ask: r.ask,
    readAt: r.readAt,
    ...(r.again ? { again: true } : {}),
    epochs: r.epochs,
    mailboxes: r.asks.map((a) => a.mailbox),
    spaces: r.views.map((v) => v?.space.id ?? null),
    content: r.views.map((v) => (v && v.version > 0 ? v.version : null)),
    reports: r.reports.map((m) => m ?? null),
    copies: copies.list,
    pairs,
    holds: holds.list,
    holdOf: runs(holdIds),
    ...(r.upsync ? { upsync: r.upsync } : {}),
  }
}
