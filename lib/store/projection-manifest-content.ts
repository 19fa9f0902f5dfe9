/**
 * Manifests read for their content only, as a planner that may write nothing needs them (the
 * translate step's reads ahead). A member that holds every copy through its shared manifest (its
 * item counts no entry of its own, `oc` 0: shared-manifest.ts `membershipAttrs`) is read without
 * its body: one BatchGetItem per 100 of its version and membership alone, its entries being its
 * shared manifest's (read once for all its members). Those entries carry the content, API
 * versions and sources its copies have, not its copies' uids, rvs or generations, so such a
 * manifest is flagged `viaShared` and never planned a write from: its reader reads it in full
 * first (readManifests). Every other mailbox (no membership, entries of its own, or an item
 * written before `oc` existed) is read in full in one more BatchGetItem per 100.
 */
import { type Item, optNumber, optString, readNumber, readString } from './attrs.ts'
import type { StoreContext } from './context.ts'
import { manifestPk } from './keys.ts'
import { manifestItems, readManifests } from './projection-manifest.ts'
import type { Manifest } from './projection-types.ts'
import { advancedMarks, membershipOf, readShared, sharedFor } from './shared-manifest.ts'

/** A manifest as read for its content: `viaShared` when its entries are its shared manifest's. */
export type ManifestContent = { manifest: Manifest; viaShared: boolean }

const HEAD = 'pk, ver, shr, mbr, oc'

/** Whether an item read with HEAD is a member with no entry of its own. */
const allShared = (item: Item) =>
  optString(item, 'shr') !== undefined && optNumber(item, 'oc') === 0

export async function readManifestContents(
  ctx: StoreContext,
  mailboxes: readonly string[]
): Promise<Map<string, ManifestContent>> {
  const heads = await manifestItems(ctx, mailboxes, HEAD)
  const prefix = manifestPk('').length
  const mailboxOf = (item: Item) => readString(item, 'pk').slice(prefix)
  const members = heads.filter(allShared)
  const rest = heads.filter((i) => !allShared(i)).map(mailboxOf)
  const [memberships, full] = await Promise.all([
    Promise.all(members.map(membershipOf)),
    rest.length > 0 ? readManifests(ctx, rest) : new Map<string, Manifest>(),
  ])
  const found = await readShared(
    ctx,
    memberships.flatMap((m) => (m ? [m.id] : []))
  )
  const out = new Map<string, ManifestContent>()
  for (const [mailbox, manifest] of full) out.set(mailbox, { manifest, viaShared: false })
  members.forEach((item, i) => {
    const membership = memberships[i]
    if (!membership) return
    const mailbox = mailboxOf(item)
    const shared = sharedFor(mailbox, membership, found)
    const marks = advancedMarks(membership.marks, shared)
    const manifest: Manifest = {
      mailbox,
      version: readNumber(item, 'ver'),
      entries: shared.entries,
      shared: { membership: { ...membership, marks }, version: shared.version },
    }
    out.set(mailbox, { manifest, viaShared: true })
  })
  return out
}
