/**
 * Shared manifests: the copies that many mailboxes hold alike, stored once. Mailboxes fed by the
 * same placements at the same versions, without customization, want the same live copies (the
 * translator's `share` key, projection-types.ts `ManifestWrite`). Their live entries go into one
 * shared manifest (pk `sm#<id>`, sk `-`, `ver`, `ts`, `body`: encoded entries like a manifest's),
 * whose id names the share key and the copies' keys, versions and sources, never their content.
 * So a change of a shared object's content is ONE write of the shared manifest, whatever the number
 * of mailboxes holding it; a copy that joins or leaves changes the id, and each mailbox moves to
 * the new id in its own manifest write, as before.
 *
 * A member mailbox's manifest item keeps its full entries as at its last write (so a reader that
 * ignores membership still sees every copy, only possibly stale) plus its membership (`shr`, the
 * shared id; `mbr`, per shared key the shared entry's rv and generation its entry was written
 * from). Its copies are composed on read (`composeEntries`): a shared entry that moved past its
 * mark lends the copy its content, rv and generation (offset so it never goes back), while the
 * copy keeps its own uid, creation time and `added`. Entries of a mailbox that are not in its
 * shared manifest (tombstones, and everything of a mailbox without one) are its own, as before.
 */
import { z } from 'zod'
import { internalError } from '../errors.ts'
import { type Item, n, optBytes, optNumber, optString, readNumber, readString, s } from './attrs.ts'
import { getItems } from './batch-get.ts'
import { bodyText } from './body-codec.ts'
import type { StoreContext } from './context.ts'
import { SINGLE_SK } from './keys.ts'
import { decodeEntries } from './projection-codec.ts'
import { compareEntryKeys, entryKey } from './projection-diff.ts'
import { contentHash } from './projection-hash.ts'
import type { ManifestEntry, SharedMembership } from './projection-types.ts'

export const SHARED_PK_PREFIX = 'sm#'
/** Prefix of shared ids: never a space id (those have no dot), so never a mailbox's. */
const ID_PREFIX = 'sm.'

export const sharedPk = (id: string) => `${SHARED_PK_PREFIX}${id}`
export const sharedKey = (id: string): Item => ({ pk: s(sharedPk(id)), sk: s(SINGLE_SK) })
export const isSharedId = (id: string) => id.startsWith(ID_PREFIX) && !/[#/]/.test(id)

/**
 * One shared manifest as stored: `version` is the rv of its last write; `ts` the last time a
 * writer wrote or confirmed it (the sweep removes one no mailbox names, confirmed long ago).
 */
export type SharedManifest = { id: string; version: number; entries: ManifestEntry[]; ts?: number }

type IdParts = Pick<ManifestEntry, 'group' | 'version' | 'resource' | 'namespace' | 'name'> &
  Pick<ManifestEntry, 'sources'>

/**
 * The id of the shared manifest for `share` holding live copies at these keys: a hash of the
 * share key and of each copy's key, version and sources (sorted), so every writer that wants the
 * same set of copies names the same shared manifest, and a change of content alone keeps it.
 */
export async function sharedId(share: string, entries: readonly IdParts[]): Promise<string> {
  const parts = [...entries]
    .sort(compareEntryKeys)
    .map((e) => [entryKey(e), e.version, e.sources ?? []])
  return `${ID_PREFIX}${await contentHash([share, parts])}`
}

const MembershipSchema = z.object({
  joined: z.number(),
  marks: z.record(z.string(), z.tuple([z.number(), z.number()])),
})

/** The membership attributes of a manifest item (`shr`, `mbr`), if it is a member. */
export async function membershipOf(item: Item): Promise<SharedMembership | undefined> {
  const id = optString(item, 'shr')
  if (id === undefined) return undefined
  const data = optBytes(item, 'mbr')
  let stored: unknown
  try {
    stored = JSON.parse(data ? await bodyText(data) : '')
  } catch (e) {
    throw internalError('stored shared membership is not JSON', e)
  }
  const parsed = MembershipSchema.safeParse(stored)
  if (!parsed.success) throw internalError('stored shared membership is malformed')
  const marks: SharedMembership['marks'] = {}
  for (const [key, [rv, generation]] of Object.entries(parsed.data.marks)) {
    marks[key] = { rv, generation }
  }
  return { id, joined: parsed.data.joined, marks }
}

/**
 * The attributes recording `membership` on a manifest item storing `entries`: `shr`, `mbr`, and
 * `oc`, how many of the entries are the mailbox's own (not a live copy of the shared manifest: a
 * tombstone, or a key the shared manifest does not mark). A member with none reads as its shared
 * manifest's content without its own body (projection-manifest-content.ts).
 */
export function membershipAttrs(
  membership: SharedMembership,
  entries: readonly ManifestEntry[]
): Item {
  const marks = Object.fromEntries(
    Object.entries(membership.marks).map(([k, m]) => [k, [m.rv, m.generation]])
  )
  const text = JSON.stringify({ joined: membership.joined, marks })
  const own = entries.filter((e) => e.removing || !membership.marks[entryKey(e)]).length
  return { shr: s(membership.id), mbr: { B: new TextEncoder().encode(text) }, oc: n(own) }
}

/** The membership, joined at `joined`, that marks every entry of `shared` as written now. */
export function membershipAt(shared: SharedManifest, joined: number): SharedMembership {
  const marks: SharedMembership['marks'] = {}
  for (const e of shared.entries) marks[entryKey(e)] = { rv: e.rv, generation: e.generation }
  return { id: shared.id, joined, marks }
}

/**
 * The member's copy of a shared entry: its own entry as written, or, once the shared entry moved
 * past the mark, the shared content at the shared rv with the generation carried over.
 */
export function memberCopy(
  own: ManifestEntry,
  shared: ManifestEntry,
  mark: { rv: number; generation: number } | undefined
): ManifestEntry {
  if (!mark || shared.rv <= mark.rv) return own
  const { hash, specHash, version, sources } = shared
  return {
    ...own,
    ...{ hash, specHash, version },
    ...(sources?.length ? { sources } : {}),
    rv: shared.rv,
    generation: own.generation + shared.generation - mark.generation,
  }
}

/** `marks` moved to each shared entry that moved past its mark: what composed copies stand on. */
export function advancedMarks(
  marks: SharedMembership['marks'],
  shared: SharedManifest
): SharedMembership['marks'] {
  const out = { ...marks }
  for (const e of shared.entries) {
    const key = entryKey(e)
    const mark = out[key]
    if (mark && e.rv > mark.rv) out[key] = { rv: e.rv, generation: e.generation }
  }
  return out
}

/** The mailbox's copies: its stored entries with their shared content laid over. */
export function composeEntries(
  stored: readonly ManifestEntry[],
  membership: SharedMembership,
  shared: SharedManifest
): ManifestEntry[] {
  const byKey = new Map(shared.entries.map((e) => [entryKey(e), e]))
  return stored.map((own) => {
    const key = entryKey(own)
    const entry = byKey.get(key)
    return entry && !own.removing ? memberCopy(own, entry, membership.marks[key]) : own
  })
}

/** A shared manifest from its stored item. */
export async function sharedFromItem(item: Item): Promise<SharedManifest> {
  const id = readString(item, 'pk').slice(SHARED_PK_PREFIX.length)
  const entries = await decodeEntries(optBytes(item, 'body') ?? new Uint8Array())
  const ts = optNumber(item, 'ts')
  return { id, version: readNumber(item, 'ver'), entries, ...(ts === undefined ? {} : { ts }) }
}

/** The shared manifests of `ids` (read consistently), by id; absent ones are missing. */
export async function readShared(
  ctx: StoreContext,
  ids: readonly string[]
): Promise<Map<string, SharedManifest>> {
  const unique = [...new Set(ids)]
  if (unique.length === 0) return new Map()
  const items = await getItems(ctx, unique.map(sharedKey))
  const read = await Promise.all(items.map(sharedFromItem))
  return new Map(read.map((m) => [m.id, m]))
}

/** The shared manifest a member needs, or an internal error: a referenced one never goes. */
export function sharedFor(
  mailbox: string,
  membership: SharedMembership,
  found: ReadonlyMap<string, SharedManifest>
): SharedManifest {
  const shared = found.get(membership.id)
  if (!shared) {
    throw internalError(`mailbox ${mailbox} names shared manifest ${membership.id}, which is gone`)
  }
  return shared
}
