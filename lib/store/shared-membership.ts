/**
 * A mailbox's manifest write when its live copies are shared (shared-manifest.ts). A mailbox that
 * already belongs to the shared manifest ("continuing") has its shared copies written by the
 * shared manifest: its own write is planned over its other entries (tombstones) only, and when
 * those do not change it writes nothing at all, which is what makes a change of shared content
 * cost one write for any number of mailboxes. A mailbox that joins, or moves to another shared
 * manifest, is written in full like any manifest (its copies keep their uids: joining is no
 * re-creation) with its marks at the shared manifest as written. After the members' writes the
 * shared manifests are read once more (`recheckMembers`): one that another batch changed between
 * this batch's read and its members' writes had its change logged below a member's own write, so
 * the copies it moved are logged again for that member, after its write.
 */

import type { ProjectionChange } from './projection-codec.ts'
import {
  compareEntryKeys,
  entryKey,
  type ManifestPlan,
  planManifest,
  type WantedEntry,
} from './projection-diff.ts'
import type { Manifest, ManifestEntry, SharedMembership } from './projection-types.ts'
import { advancedMarks, memberCopy, membershipAt, type SharedManifest } from './shared-manifest.ts'

export type MemberPlan = {
  /** What the manifest write stamps: the own entries of a continuing member, else everything. */
  plan: ManifestPlan
  /** The mailbox already belonged to this shared manifest, with every shared copy in place. */
  continuing: boolean
  /**
   * The member's copies as readers see them, before and after (the write's counts): planned on
   * first use, since a continuing member that writes nothing and whose shared manifest this batch
   * did not write reports no counts (most members of a change).
   */
  effective(): ManifestPlan
  /** The manifest as read after the shared write, for a continuing member that writes nothing. */
  after: Manifest
  /**
   * The membership the write records, given the write's rv: marks at the shared manifest as
   * written, joined at that rv, or when it was joined for a continuing member.
   */
  membership(rv: number): SharedMembership
  sharedVersion: number
  /** The entries to store and the changes to log, from the stamped plan. */
  finish(stamped: { entries: ManifestEntry[]; changes: ProjectionChange[] }): {
    entries: ManifestEntry[]
    changes: ProjectionChange[]
  }
}

const byKey = (entries: readonly ManifestEntry[]) => new Map(entries.map((e) => [entryKey(e), e]))

/** Plans the write of `mailbox` (current: as read) as a member of `next`. */
export function planMember(
  mailbox: string,
  current: Manifest | undefined,
  wanted: readonly WantedEntry[],
  next: SharedManifest
): MemberPlan {
  const shared = byKey(next.entries)
  let planned: ManifestPlan | undefined
  const effective = () => {
    planned ??= planManifest(current?.entries ?? [], [...wanted])
    return planned
  }
  const marks = current?.shared?.membership.id === next.id ? current.shared.membership.marks : {}
  const held = byKey((current?.entries ?? []).filter((e) => !e.removing))
  const continuing =
    current?.shared?.membership.id === next.id &&
    [...shared.keys()].every((k) => held.has(k) && marks[k] !== undefined)
  if (!current?.shared || !continuing) {
    const after = current ?? { mailbox, version: 0, entries: [] }
    const membership = (rv: number) => membershipAt(next, rv)
    return {
      ...{ plan: effective(), continuing: false, effective, after, membership },
      sharedVersion: next.version,
      finish: (stamped) => stamped,
    }
  }
  // The shared copies as they read once the shared manifest is written.
  const sharedNow = [...shared].map(([k, e]) => memberCopy(held.get(k)!, e, marks[k]))
  const nowMarks = advancedMarks(marks, next)
  const own = current.entries.filter((e) => !shared.has(entryKey(e)))
  const plan = planManifest(
    own,
    wanted.filter((w) => !shared.has(entryKey(w)))
  )
  const merged = (ownEntries: readonly ManifestEntry[]) =>
    [...sharedNow, ...ownEntries].sort(compareEntryKeys)
  const { joined } = current.shared.membership
  const after: Manifest = {
    ...current,
    entries: merged(own),
    shared: { membership: { id: next.id, joined, marks: nowMarks }, version: next.version },
  }
  const membership = () => membershipAt(next, joined)
  return {
    ...{ plan, continuing: true, effective, after, membership },
    sharedVersion: next.version,
    finish: ({ entries, changes }) => ({ entries: merged(entries), changes }),
  }
}

/** A member written by the batch, with the entries it stored and the marks it recorded. */
export type WrittenMember = {
  mailbox: string
  entries: ManifestEntry[]
  membership: SharedMembership
}

/**
 * The copies of written members that their shared manifest moved past their marks since (another
 * batch's write, landed below theirs): each member's MODIFIED list, to log after its write.
 */
export function movedSince(
  written: readonly WrittenMember[],
  now: ReadonlyMap<string, SharedManifest>
): { mailbox: string; changes: ProjectionChange[] }[] {
  return written.flatMap(({ mailbox, entries, membership }) => {
    const shared = now.get(membership.id)
    if (!shared) return []
    const current = byKey(shared.entries)
    const changes = entries.flatMap((e): ProjectionChange[] => {
      const k = entryKey(e)
      const s = current.get(k)
      const mark = membership.marks[k]
      return s && mark && s.rv > mark.rv
        ? [{ type: 'MODIFIED', entry: memberCopy(e, s, mark) }]
        : []
    })
    return changes.length > 0 ? [{ mailbox, changes }] : []
  })
}
