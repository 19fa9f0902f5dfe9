/**
 * The DynamoDB ProjectionStore (projection-types.ts): content-addressed bodies
 * (projection-bodies.ts) behind one process-local cache, one manifest item per mailbox
 * (projection-manifest.ts) whose writes log one change-log item per touched group/resource
 * (projection-log.ts), and one state item per copy the edge reported on (projection-state.ts,
 * projection-state-write.ts). Request cost of a writeManifest of N entries in K group/resources
 * whose bodies are cached: 1 consistent read of the manifest (none when the caller passes it as
 * `known`) when nothing changed; otherwise that read, 1 UpdateItem (the rv), 1 PutItem (the
 * manifest) and ceil(K / 25) BatchWriteItem, plus one BatchGetItem per 100 changed (not added or
 * removed) entries for their copy states. writeManifests shares all of those but the PutItems
 * among the writes of a batch (projection-manifest-write.ts). Each uncached
 * body adds one conditional PutItem (plus one shared BatchGetItem per 100 when they already
 * existed). getManifest is one GetItem whatever the copy states; for a member of a shared
 * manifest (shared-manifest.ts) one more read, or one BatchGetItem for both once the store has
 * read the mailbox before (its share hints). markServed is one UpdateItem,
 * getServed one GetItem (plus one for the format record until the table is current).
 * getMailboxMarks is one BatchGetItem per 50 mailboxes (projection-marks.ts), touchMailbox one
 * UpdateItem; deleteManifest also drops the served and report marks.
 */
import type { StoreContext } from './context.ts'
import { formatWatch } from './format.ts'
import { type BodyCache, getBodies, putBodies } from './projection-bodies.ts'
import {
  checkMailbox,
  deleteManifest,
  readManifest,
  readManifests,
  readVersions,
  type ShareHints,
} from './projection-manifest.ts'
import { readManifestContents } from './projection-manifest-content.ts'
import { writeManifest, writeManifests } from './projection-manifest-write.ts'
import { deleteReportMark, readMailboxMarks, touchMailbox } from './projection-marks.ts'
import { deleteServed, markServed, readServed } from './projection-served.ts'
import { getCopyStates, getCopyStatesOf, listCopyStates } from './projection-state.ts'
import { putCopyStates } from './projection-state-write.ts'
import type { ProjectionStore } from './projection-types.ts'
import { sharedFeed } from './shared-feed.ts'

export function createProjectionStore(ctx: StoreContext): ProjectionStore {
  const cache: BodyCache = new Map()
  const format = formatWatch(ctx)
  const hints: ShareHints = new Map()
  return {
    putBodies: (bodies) => putBodies(ctx, cache, bodies),
    getBodies: (hashes) => getBodies(ctx, cache, hashes),
    getManifest: (mailbox) => readManifest(ctx, mailbox, hints),
    getManifests: (mailboxes) => readManifests(ctx, mailboxes),
    getManifestContents: (mailboxes) => readManifestContents(ctx, mailboxes),
    getManifestVersions: (mailboxes) => {
      for (const m of mailboxes) checkMailbox(m)
      return readVersions(ctx, mailboxes)
    },
    writeManifest: async (mailbox, w) => {
      const { share: _share, ...own } = w
      const shares = w.share !== undefined && (await format.isCurrent())
      return writeManifest(ctx, cache, mailbox, shares ? w : own)
    },
    writeManifests: async (requests) => {
      // Shared manifests are format 3: a table still migrating gets each mailbox's own.
      if (!requests.some((r) => r.w.share !== undefined) || (await format.isCurrent()))
        return writeManifests(ctx, cache, requests)
      const own = requests.map(({ mailbox, w: { share: _share, ...w } }) => ({ mailbox, w }))
      return writeManifests(ctx, cache, own)
    },
    deleteManifest: async (mailbox) => {
      await deleteManifest(ctx, mailbox)
      await Promise.all([deleteServed(ctx, mailbox), deleteReportMark(ctx, mailbox)])
    },
    markServed: (mailbox, version) => markServed(ctx, mailbox, version),
    getServed: async (mailbox) => {
      if (!(await format.isCurrent())) return { kind: 'unknown' }
      const version = await readServed(ctx, mailbox)
      return version === undefined ? { kind: 'never' } : { kind: 'at', version }
    },
    getCopyStates: (mailbox, keys) => getCopyStates(ctx, mailbox, keys),
    getCopyStatesOf: (wants) => {
      for (const w of wants) checkMailbox(w.mailbox)
      return getCopyStatesOf(ctx, wants)
    },
    getMailboxMarks: (mailboxes, options) =>
      readMailboxMarks(ctx, mailboxes, options?.content ?? true),
    touchMailbox: (mailbox) => touchMailbox(ctx, mailbox),
    listCopyStates: (mailbox, scope) => listCopyStates(ctx, mailbox, scope),
    putCopyStates: (mailbox, writes) => putCopyStates(ctx, mailbox, writes, hints),
    sharedFeed: (mailbox) => sharedFeed(ctx, mailbox),
  }
}
