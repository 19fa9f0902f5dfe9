/**
 * Desired content shared by the mailboxes of one batch that have the same inputs. A mailbox's
 * content (desired.ts) is a function of the placements that name it (in order; what each selects
 * comes from the batch's one snapshot), the version chosen per API group, its previous entries
 * (the update rules project over the previous bodies) and its customization. Where no selected
 * object asks for customization the Location plays no part, so two mailboxes fed by the same
 * placements, at the same versions, holding the same previous copies from the same spaces (which
 * space holds an identity decides a trust-scope conflict, trust-scopes.ts), get the same content
 * (the batch's merges are ordered by one reading, authored-order.ts): the
 * batch computes it once and hands the same entries (the same body objects, hashed once,
 * lib/store/projection-hash.ts) to every such mailbox's write. A thousand destinations of one
 * placement cost one projection per distinct previous state, not a thousand. The memo keeps the
 * last MEMO_LIMIT contents only, so a batch of mailboxes that all differ holds little.
 */
import { createLru } from '../../lib/lru.ts'
import { entryKey } from '../../lib/store/projection-diff.ts'
import type { Manifest, ManifestEntry } from '../../lib/store/projection-types.ts'
import type { DesiredContent, PlacementSelection, Previous } from './desired.ts'

/** Distinct contents a batch remembers (least recently used dropped first). */
export const MEMO_LIMIT = 16

export type ContentMemo = {
  /** The content for `key`, computed by `compute` unless the batch has it. */
  get(key: string, compute: () => DesiredContent): DesiredContent
}

/** A previous copy as the content depends on it, its sources included (they say who holds it). */
const entryText = (e: ManifestEntry) =>
  `${e.group}/${e.resource}/${e.namespace}/${e.name}=${e.hash}@${e.version}!${e.removing ?? ''}<${(e.sources ?? []).map((s) => s.space).join(',')}`

/**
 * What the live copies of a mailbox without customization depend on besides their previous
 * state: the placements naming it, in order, each with its place under the Rollouts its objects
 * were sent from (held-selections.ts: a place is at one revision; nothing when no object is sent
 * from a revision), and the versions chosen. Mailboxes with the same
 * share key hold their live copies in one shared manifest (lib/store/shared-manifest.ts), so a
 * change of a workload they all get is one write, whatever their number.
 */
export function shareKey(
  chosen: readonly PlacementSelection[],
  versions: ReadonlyMap<string, string>
): string {
  const placements = chosen.map(
    (s) =>
      `${s.ref.spaceId}/${s.ref.placement.metadata.name ?? ''}${s.revisions ? `@${s.revisions}` : ''}`
  )
  const chosenVersions = [...versions].map(([g, v]) => `${g}=${v}`).sort()
  return [placements.join(','), chosenVersions.join(',')].join('\n--\n')
}

/** The previous copies' part of a content key: each copy's key, hash, version and state. */
export function copiesText(previous: readonly Previous[]): string {
  return previous.map((p) => `${entryText(p.entry)}${p.body ? '' : '?'}`).join('\n')
}

/**
 * What a mailbox's content depends on (no customization asked), as one string: its share key and
 * its previous copies' text (`copiesText`, made once for the mailboxes that share it).
 */
export const contentKeyOf = (share: string, copies: string) => `${share}\n--\n${copies}`

export function contentMemo(limit = MEMO_LIMIT): ContentMemo {
  const memo = createLru<DesiredContent>(limit)
  return { get: (key, compute) => memo.get(key, compute) }
}

/**
 * The shared manifest a mailbox holds all of its copies through, if it does: a member whose every
 * entry is a live copy of its shared manifest (marked, no tombstone), so its content is the shared
 * manifest's and nothing of its own. Undefined for any other mailbox.
 */
export function pureShare(manifest: Manifest | undefined): string | undefined {
  const shared = manifest?.shared
  if (!shared) return undefined
  const { marks } = shared.membership
  const pure = manifest.entries.every((e) => !e.removing && marks[entryKey(e)] !== undefined)
  return pure ? shared.membership.id : undefined
}

/**
 * What the batch learns of its members' contents (settled shares), by shared manifest and content
 * key: whether a run of the batch that held all of its copies through that shared manifest, and
 * stays in it, found on that content nothing else to write (its write, or its group's, having put
 * the shared manifest at that content). Another such member with the same inputs then has
 * nothing to write either: its run confirms its manifest's version instead of planning a write.
 * The first run on a key claims it before it reads or writes on, so the runs of its wave wait for
 * what it finds instead of each planning the same.
 */
export type SettledShares = {
  /** What the run that claimed `key` found (true: nothing to write), if one did. */
  found(key: string): Promise<boolean> | undefined
  /** Claims `key`; the claimer tells what it found (every claim must be told, once). */
  claim(key: string): (found: boolean) => void
}

export const settledKey = (shareId: string, content: string) => `${shareId}\n--\n${content}`

export function settledShares(): SettledShares {
  const claims = new Map<string, Promise<boolean>>()
  return {
    found: (key) => claims.get(key),
    claim(key) {
      let tell: (found: boolean) => void = () => undefined
      claims.set(key, new Promise<boolean>((resolve) => (tell = resolve)))
      return tell
    },
  }
}
