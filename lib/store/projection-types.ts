/**
 * The storage contract for mailbox contents. A mailbox space does not hold one stored object per
 * projected copy: the translator writes one manifest per mailbox (a list of entries, each naming a
 * projected object and the content hash of its body) and each distinct body once, content-addressed.
 * One workload sent to a thousand edges therefore costs a thousand small manifest writes and one
 * body per distinct content, not a thousand full copies. The hub serves the entries as ordinary
 * objects of the mailbox space (get, list, watch), rendered from the body plus the per-copy
 * metadata the entry carries (uid, resourceVersion, creationTimestamp, generation, the
 * `kcp.io/cluster` annotation). Bodies are immutable; the change log records which entries a
 * manifest write added, changed or removed, so watches of a mailbox see one event per copy. What
 * the edge reports about a copy (status, associated objects, a problem) is a separate per-copy
 * state item (`CopyState`), written without touching the manifest and merged when rendering.
 */
import type { JsonObject, KubeObject } from '../kube/types.ts'

/** What the translator wants in a mailbox at one key: the projected body and where it lives. */
export type DesiredEntry = {
  group: string
  /** The version the body is written at (the `apiVersion` version part). */
  version: string
  /** Lowercase plural resource. */
  resource: string
  /** '' for cluster-scoped objects. */
  namespace: string
  name: string
  /**
   * The projected body without per-copy metadata: no uid, resourceVersion, creationTimestamp,
   * generation, managedFields, ownerReferences, `kcp.io/cluster` annotation or status.
   */
  body: KubeObject
  /**
   * Set on a tombstone: the copy is leaving the mailbox (RFC 3339 time the center recorded it)
   * and stays listed until the edge reports it gone.
   */
  removing?: string
  /** The workload spaces and placements that selected the object here (see EntrySource). */
  sources?: EntrySource[]
}

/**
 * Where a copy comes from: a workload space id and the EdgePlacements of that space that selected
 * the object for this destination (sorted). Bookkeeping for the source finalizer and the
 * per-placement summary; a change of sources alone is no change of the copy (no rv, no event).
 */
export type EntrySource = { space: string; placements: string[] }

/** One projected object as the manifest records it. */
export type ManifestEntry = {
  group: string
  version: string
  resource: string
  namespace: string
  name: string
  /** Content hash of the body (see ProjectionStore.putBodies). */
  hash: string
  /** Hash of the body without `metadata`: a change bumps `generation`. */
  specHash: string
  /** resourceVersion of the manifest write that last changed this entry. */
  rv: number
  /** uid of the copy, fixed when the entry was first added. */
  uid: string
  /** creationTimestamp of the copy (RFC 3339, seconds). */
  created: string
  /** metadata.generation of the copy: 1 when added, +1 whenever specHash changes. */
  generation: number
  /**
   * A tombstone: when the center recorded the copy as leaving (RFC 3339). The copy is rendered
   * terminating and the edge removes it; the translator drops the entry once the edge confirms.
   */
  removing?: string
  /** Where the copy comes from (DesiredEntry.sources); absent when unknown. */
  sources?: EntrySource[]
  /**
   * resourceVersion of the manifest write that first added this copy (this uid); absent on
   * entries written before format 2 (format.ts). The deletion lifecycle compares it with the
   * mailbox's served mark: a copy added after the last version served never reached the edge.
   */
  added?: number
}

export type Manifest = {
  /** Logical-cluster id of the mailbox space. */
  mailbox: string
  /**
   * resourceVersion of the last write; the precondition for the next one. 0 stands for "no
   * manifest stored" (writeManifest treats an expectedVersion of 0 like null).
   */
  version: number
  /**
   * In key order: group, resource, namespace, name. At most about ten thousand entries of typical
   * size: a manifest whose encoding exceeds 300 kB (gzip-compressed JSON) is refused with 413.
   */
  entries: ManifestEntry[]
  /**
   * Set when the mailbox is a member of a shared manifest (shared-manifest.ts): `entries` are then
   * composed from the stored ones and the shared manifest read with them.
   */
  shared?: { membership: SharedMembership; version: number }
}

/**
 * A mailbox's membership of a shared manifest: its id, the rv of the mailbox's write that joined
 * it (the shared manifest's later changes are the mailbox's, on its watch) and, per shared copy
 * key, the rv and generation of the shared entry the mailbox's stored entry was written from.
 */
export type SharedMembership = {
  id: string
  joined: number
  marks: Record<string, { rv: number; generation: number }>
}

/**
 * The version of what a mailbox holds: its manifest's, or its shared manifest's when that was
 * written later. What the edge is served (its ETag, the served mark) and what readers compare.
 */
export const contentVersion = (m: Pick<Manifest, 'version' | 'shared'>): number =>
  Math.max(m.version, m.shared?.version ?? 0)

export type ManifestWriteResult = {
  manifest: Manifest
  added: number
  /** Entries whose copy changed (body, version or removing). */
  changed: number
  removed: number
  /** False when the desired entries equalled the stored ones: nothing was written. */
  written: boolean
}

/**
 * One manifest write (ProjectionStore.writeManifest): the `desired` entries, the version it
 * expects stored (`expectedVersion`), the time of the write and the manifest the caller `known`.
 */
export type ManifestWrite = {
  desired: readonly DesiredEntry[]
  expectedVersion: number | null
  now: Date
  known?: Manifest | null
  /**
   * The mailbox's live copies may be shared with the other mailboxes given the same key (the
   * translator's inputs: placements and versions, no customization): they are then written to
   * the shared manifest named by this key and their keys (shared-manifest.ts), and the mailbox's
   * own write only records its membership and its tombstones.
   */
  share?: string
}

/** One manifest write of a batch (ProjectionStore.writeManifests). */
export type ManifestWriteRequest = { mailbox: string; w: ManifestWrite }

/** What became of one write of a batch: its result, or why it failed (Conflict, 400, 413...). */
export type ManifestWriteOutcome =
  | { ok: true; result: ManifestWriteResult }
  | { ok: false; error: unknown }

export interface ProjectionStore {
  /**
   * Stores bodies by content hash (idempotent: a body already stored is not written again; a
   * process-local cache of known hashes avoids even the conditional write). Returns the hashes in
   * input order: base64url of the first 16 bytes of the SHA-256 of the canonical (sorted-key)
   * JSON. 413 RequestEntityTooLarge for a body over 1 MiB of JSON or over 350 kB compressed.
   */
  putBodies(bodies: readonly KubeObject[]): Promise<string[]>
  /**
   * Bodies by hash; missing ones are absent from the map. Cached in-process (immutable); the
   * returned objects are shared with the cache, so treat them as read-only.
   */
  getBodies(hashes: readonly string[]): Promise<Map<string, KubeObject>>
  /** undefined when the mailbox has no manifest. One consistent GetItem. */
  getManifest(mailbox: string): Promise<Manifest | undefined>
  /**
   * The manifests of several mailboxes, by mailbox (absent ones missing): one consistent
   * BatchGetItem per 100. BadRequest for an invalid mailbox id.
   */
  getManifests(mailboxes: readonly string[]): Promise<Map<string, Manifest>>
  /**
   * The stored versions of several mailboxes' manifests, by mailbox (absent ones missing): one
   * consistent BatchGetItem of the version alone per 100, for a writer that planned on a read and
   * writes nothing to confirm the read still stands.
   */
  getManifestVersions(mailboxes: readonly string[]): Promise<Map<string, number>>
  /**
   * The manifests of several mailboxes for their content only (projection-manifest-content.ts):
   * a member holding every copy through its shared manifest comes without its own body, its
   * entries the shared manifest's, flagged `viaShared` (plan no write from it); the others as
   * getManifests reads them.
   */
  getManifestContents(
    mailboxes: readonly string[]
  ): Promise<Map<string, { manifest: Manifest; viaShared: boolean }>>
  /**
   * Makes the manifest hold exactly `w.desired` (bodies are stored first). Entries whose body hash,
   * version and `removing` are unchanged keep their rv, uid, creation time and generation (a change
   * of `sources` alone is written without touching them and logs nothing); when nothing differs
   * nothing is written. Otherwise one resourceVersion is taken for the write, the manifest item is put with a
   * precondition (`expectedVersion`: null = only if absent, a number = only if the stored version
   * equals it; Conflict otherwise), then one change-log entry per touched group/resource lists the
   * ADDED / MODIFIED / DELETED copies, so watches of the mailbox space see them. Conflict is also
   * returned when the manifest moved between this call's read and its write (nothing is logged
   * then). BadRequest for an invalid key or a key named twice; 413 when the manifest, or one
   * group/resource's change list of this write (over 350 kB compressed), is too large.
   * `known`, when given, is the manifest as the caller just read it (null: none), with the version
   * `expectedVersion` names: the write then plans from it instead of reading the manifest again
   * (one GetItem less), the precondition still guarding against a change since that read.
   */
  writeManifest(mailbox: string, w: ManifestWrite): Promise<ManifestWriteResult>
  /**
   * Several `writeManifest`s (each to its own mailbox) sharing their requests
   * (projection-manifest-write.ts): the manifests not `known` read in one BatchGetItem per 100, one
   * counter request for all the rvs, one BatchGetItem per 100 changed copies' states, one
   * conditional PutItem per manifest that changes and their log items together. Outcomes in input
   * order; one write failing never fails the others.
   */
  writeManifests(requests: readonly ManifestWriteRequest[]): Promise<ManifestWriteOutcome[]>
  /**
   * Removes the manifest (the mailbox went away) and its served mark; its copies get DELETED
   * events. No-op if absent.
   */
  deleteManifest(mailbox: string): Promise<void>
  /**
   * Records that the mailbox's agent was answered with manifest `version` (projection-served.ts):
   * the mark only grows. One UpdateItem.
   */
  markServed(mailbox: string, version: number): Promise<void>
  /**
   * What the mailbox's agent was served: `unknown` while the table's format is older than
   * served marks (the format is read once per store until current), else its mark or `never`.
   */
  getServed(mailbox: string): Promise<ServedMark>
  /**
   * The stored states of the named copies (projection-state.ts), by `entryKey`; absent ones are
   * missing from the map. A state is returned whatever its uid: callers match it to the entry.
   * One consistent BatchGetItem per 100 keys.
   */
  getCopyStates(mailbox: string, keys: readonly CopyKey[]): Promise<Map<string, StoredCopyState>>
  /**
   * `getCopyStates` for several mailboxes at once, by mailbox then entryKey: one consistent
   * BatchGetItem per 100 keys in all, whatever the mailboxes.
   */
  getCopyStatesOf(
    wants: readonly { mailbox: string; keys: readonly CopyKey[] }[]
  ): Promise<Map<string, Map<string, StoredCopyState>>>
  /**
   * What tells a reader that something it read of a mailbox changed (projection-marks.ts): the
   * version of its content and the mark its reports move, by mailbox (no manifest: no `content`).
   * One BatchGetItem per 50 mailboxes, one per 100 of their shared manifests; with `content`
   * false the report marks alone (one per 100). BadRequest for an invalid mailbox id.
   */
  getMailboxMarks(
    mailboxes: readonly string[],
    options?: { content?: boolean }
  ): Promise<Map<string, MailboxMark>>
  /** Moves the mailbox's report mark: something it reports changed besides its copy states. */
  touchMailbox(mailbox: string): Promise<void>
  /** Every stored state of one group/resource (one namespace when given): one Query per 1 MB. */
  listCopyStates(
    mailbox: string,
    scope: { group: string; resource: string; namespace?: string }
  ): Promise<Map<string, StoredCopyState>>
  /**
   * Writes copy states, each only if its copy is still in the manifest with the state's uid
   * (else `gone`) and the stored state's rv is `expectedRv` (null: no state stored; else
   * `conflict`). One resourceVersion is taken for the call; the written copies get a MODIFIED
   * change-log entry (one per group/resource) carrying their new state. Results in input order.
   * BadRequest for a key named twice; 413 when a state's encoding exceeds 350 kB.
   */
  putCopyStates(mailbox: string, writes: readonly CopyStateWrite[]): Promise<CopyStateWriteResult[]>
  /**
   * What the watch of a member mailbox needs to read its shared manifest's changes as its own
   * (shared-feed.ts); undefined when the mailbox shares nothing. One GetItem.
   */
  sharedFeed(mailbox: string): Promise<SharedFeed | undefined>
}

/** What is known of what a mailbox's agent was served. */
export type ServedMark =
  /** The table's marks are not complete yet (its migration runs): assume anything was served. */
  | { kind: 'unknown' }
  /** No manifest version was ever served to the mailbox's agent. */
  | { kind: 'never' }
  /** The highest manifest version served. */
  | { kind: 'at'; version: number }

/** Names one projected copy of a mailbox. */
export type CopyKey = Pick<ManifestEntry, 'group' | 'resource' | 'namespace' | 'name'>

/** The state of an object a copy owns at the edge (protocol.ts `Associated`). */
export type AssociatedObject = {
  kind: string
  namespace: string
  name: string
  phase?: string
  ready?: boolean
  reason?: string
}

/**
 * What the edge reported about one projected copy: the copy keeps no status of its own (its body
 * is shared), so status lives in a per-copy state item next to the manifest. Rendering merges it
 * (projection-render.ts) as long as `uid` is the copy's: a state of an earlier copy with the same
 * key is ignored.
 */
export type CopyState = {
  /** uid of the copy the state belongs to. */
  uid: string
  /** The object's status as the edge reports it (or as a status-subresource write set it). */
  status: JsonObject
  /** The copy's generation the edge reflects; rendered as `status.observedGeneration`. */
  observedGeneration?: number
  /** Objects the copy owns at the edge (a Deployment's ReplicaSets and Pods). */
  associated?: AssociatedObject[]
  /** What keeps the edge from applying the copy (a foreign object in the way). */
  problem?: { reason: string; message: string }
  /** The edge reported the copy gone (it was removing and the edge no longer has it). */
  gone?: boolean
}

/** A mailbox's marks (ProjectionStore.getMailboxMarks); `content` absent: no manifest. */
export type MailboxMark = { content?: number; reports?: string }

/** A state as stored: `rv` is the resourceVersion of its last write. */
export type StoredCopyState = CopyState & { rv: number }

export type CopyStateWrite = { key: CopyKey; state: CopyState; expectedRv: number | null }

export type CopyStateWriteResult =
  | { outcome: 'written'; state: StoredCopyState; entry: ManifestEntry }
  | { outcome: 'conflict' | 'gone' }

/**
 * The object a manifest entry stands for, as clients see it in the mailbox space; `state`, when
 * given and of this copy (same uid), adds the reported status.
 */
export type RenderProjected = (
  mailbox: string,
  entry: ManifestEntry,
  body: KubeObject,
  state?: StoredCopyState
) => KubeObject

/**
 * What a member mailbox needs to read its shared manifest's changes as its own: the shared id, its
 * stored entries and marks, and when it joined (the shared changes after that are its own).
 */
export type SharedFeed = {
  id: string
  mailbox: string
  entries: ReadonlyMap<string, ManifestEntry>
  marks: SharedMembership['marks']
  joined: number
}
