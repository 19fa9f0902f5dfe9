/**
 * Names by uid, for the kinds the control plane looks up by uid: a mailbox name carries its
 * SyncTarget's uid, not its name, and the mailbox step used to list every SyncTarget of the
 * inventory space to find one — a read that grew with the inventory on every run, so registering N
 * edges cost N². Key-value ns `sync-targets`, one for every space, keyed by the SyncTarget's
 * mailbox name (`<space-id>-mb-<uid>`, lib/reconcile/keys.ts), value the SyncTarget's name. Keyed
 * so, the index also lists the mailboxes that should exist in mailbox-name order, a bounded page
 * at a time (`wantedMailboxes`), for the mailbox step's resync. The entry is written when the
 * object is prepared for creation (so also for a dry run or a create that then fails) and outlives
 * the object until the mailbox step has removed its mailbox too (`forgetUid`), so the runs a
 * deletion wakes stay one read and one get, and a resync still visits the mailbox to remove; a
 * lookup reads the object by that name and checks its uid, so an entry whose object never was,
 * or went, finds nothing (and its key's next run forgets it).
 * Releases before kept the entries per space (ns `uids:<space-id>`, key `synctargets/<uid>`): a
 * lookup that misses reads that entry too, and objects created before any index existed are found
 * by listing the kind in the space, as before; either way the entry found is written anew, so an
 * older SyncTarget joins the listing at its mailbox's first run (the resync reaches its mailbox
 * through the existing mailboxes). SyncTargets of `root:espw` and below are never indexed, so the
 * mailbox step's resync never lists a mailbox for one.
 */
import { SYNC_TARGETS } from '../apis/gvr.ts'
import type { KubeObject } from '../kube/types.ts'
import { mailboxName } from '../reconcile/keys.ts'
import type { KvStore } from '../store/types.ts'
import { isServiceProviderPath } from '../tenancy/policy.ts'
import type { HubClient } from './client.ts'
import type { HubDeps } from './deps.ts'
import type { KindHookRegistry } from './kind-hooks.ts'

export const SYNC_TARGET_INDEX = 'sync-targets'
/** Where a release before kept the entries of one space. */
const legacyNs = (spaceId: string) => `uids:${spaceId}`
const legacyKey = (uid: string) => `${SYNC_TARGETS.resource}/${uid}`

/** Records `uid` → `name` for a SyncTarget of space `spaceId`. */
export async function rememberUid(kv: KvStore, spaceId: string, uid: string, name: string) {
  await kv.put(SYNC_TARGET_INDEX, mailboxName(spaceId, uid), name)
}

/** The name the index holds for a SyncTarget uid, in this release's entry or an older one. */
async function indexedName(kv: KvStore, spaceId: string, uid: string) {
  const entry = await kv.get<string>(SYNC_TARGET_INDEX, mailboxName(spaceId, uid))
  if (entry) return entry.value
  const legacy = await kv.get<string>(legacyNs(spaceId), legacyKey(uid))
  if (legacy) await rememberUid(kv, spaceId, uid, legacy.value)
  return legacy?.value
}

/**
 * The index entries of many mailbox names at once (one read per 100): the names to hand
 * `syncTargetByUid` as `known`. A name is the SyncTarget's for the whole life of its uid, so one
 * read ahead for a batch of runs is as good as each run's own; a name missing here is looked up
 * again by the run.
 */
export async function indexedNames(
  kv: KvStore,
  mailboxes: readonly string[]
): Promise<Map<string, string>> {
  const entries = await kv.getMany<string>(SYNC_TARGET_INDEX, mailboxes)
  return new Map([...entries].map(([key, e]) => [key, e.value]))
}

/**
 * The live (not deleting) SyncTarget of space `spaceId` with `uid`, or undefined when there is
 * none. One key-value read and one get when indexed (the get alone when `at.known` is its indexed
 * name, read ahead by `indexedNames`); a list of the space's SyncTargets when not.
 */
export async function syncTargetByUid(
  client: HubClient,
  kv: KvStore,
  at: { spaceId: string; uid: string; known?: string | undefined }
): Promise<KubeObject | undefined> {
  const { spaceId, uid, known } = at
  const name = known ?? (await indexedName(kv, spaceId, uid))
  if (name !== undefined) return liveWithUid(await client.get(spaceId, SYNC_TARGETS, name), uid)
  const all = await client.list(spaceId, SYNC_TARGETS, { predicate: (o) => o.metadata.uid === uid })
  const found = all.find((o) => !o.metadata.deletionTimestamp)
  if (found?.metadata.name) await rememberUid(kv, spaceId, uid, found.metadata.name)
  return found
}

/** `obj` when it is the live (not deleting) object with `uid`: what a lookup by uid finds. */
export function liveWithUid(obj: KubeObject | undefined, uid: string): KubeObject | undefined {
  return obj && obj.metadata.uid === uid && !obj.metadata.deletionTimestamp ? obj : undefined
}

/** Drops the entry of `uid`, and a release before's (once neither the SyncTarget nor its mailbox is left). */
export async function forgetUid(kv: KvStore, spaceId: string, uid: string): Promise<void> {
  await kv.delete(SYNC_TARGET_INDEX, mailboxName(spaceId, uid))
  await kv.delete(legacyNs(spaceId), legacyKey(uid))
}

/**
 * The mailbox names of indexed SyncTargets after `after` (exclusive), in name order: one bounded
 * key-value read of at most `limit` entries, whatever the number of SyncTargets.
 */
export async function wantedMailboxes(
  kv: KvStore,
  page: { after?: string | undefined; limit: number }
): Promise<string[]> {
  const read = await kv.list<string>(SYNC_TARGET_INDEX, undefined, {
    ...(page.after !== undefined ? { after: page.after } : {}),
    limit: page.limit,
  })
  return read.map((e) => e.key)
}

/**
 * The hook writing the index entry of every SyncTarget created, but those of `root:espw` and the
 * spaces below it: a SyncTarget there (what an edge put into its mailbox) never wants a mailbox.
 */
export function registerUidIndexHooks(hooks: KindHookRegistry<HubDeps>): void {
  hooks.register(SYNC_TARGETS.group, SYNC_TARGETS.resource, {
    async prepareCreate(ctx, obj) {
      const { uid, name } = obj.metadata
      if (isServiceProviderPath(ctx.space.path)) return obj
      if (uid && name) await rememberUid(ctx.deps.kv, ctx.space.id, uid, name)
      return obj
    },
  })
}
