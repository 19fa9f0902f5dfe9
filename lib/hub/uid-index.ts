/**
 * Names by uid, for the kinds the control plane looks up by uid: a mailbox name carries its
 * SyncTarget's uid, not its name, and the mailbox step used to list every SyncTarget of the
 * inventory space to find one — a read that grew with the inventory on every run, so registering N
 * edges cost N². Key-value ns `uids:<space-id>`, key `<resource>/<uid>`, value the object's name
 * (cluster-scoped kinds only). The entry is written when the object is prepared for creation (so
 * also for a dry run or a create that then fails) and outlives the object until the mailbox step
 * has removed its mailbox too (`forgetUid`), so the runs a deletion wakes stay one read and one
 * get; a lookup reads the object by that name and checks its uid, so an entry whose object never
 * was, or went, finds nothing. Objects created before the index existed have no entry: the lookup
 * lists the kind in the space then, as before, and adds the entry of the one it found.
 */
import { SYNC_TARGETS } from '../apis/gvr.ts'
import type { KubeObject } from '../kube/types.ts'
import type { KvStore } from '../store/types.ts'
import type { HubClient } from './client.ts'
import type { HubDeps } from './deps.ts'
import type { KindHookRegistry } from './kind-hooks.ts'

const nsOf = (spaceId: string) => `uids:${spaceId}`

/** Records `uid` → `name` for a SyncTarget of space `spaceId`. */
export async function rememberUid(kv: KvStore, spaceId: string, uid: string, name: string) {
  await kv.put(nsOf(spaceId), `${SYNC_TARGETS.resource}/${uid}`, name)
}

/**
 * The live (not deleting) SyncTarget of space `spaceId` with `uid`, or undefined when there is
 * none. One key-value read and one get when indexed; a list of the space's SyncTargets when not.
 */
export async function syncTargetByUid(
  client: HubClient,
  kv: KvStore,
  spaceId: string,
  uid: string
): Promise<KubeObject | undefined> {
  const entry = await kv.get<string>(nsOf(spaceId), `${SYNC_TARGETS.resource}/${uid}`)
  if (entry) {
    const obj = await client.get(spaceId, SYNC_TARGETS, entry.value)
    return obj && obj.metadata.uid === uid && !obj.metadata.deletionTimestamp ? obj : undefined
  }
  const all = await client.list(spaceId, SYNC_TARGETS, { predicate: (o) => o.metadata.uid === uid })
  const found = all.find((o) => !o.metadata.deletionTimestamp)
  if (found?.metadata.name) await rememberUid(kv, spaceId, uid, found.metadata.name)
  return found
}

/** Drops the entry of `uid` (once neither the SyncTarget nor its mailbox is left). */
export async function forgetUid(kv: KvStore, spaceId: string, uid: string): Promise<void> {
  await kv.delete(nsOf(spaceId), `${SYNC_TARGETS.resource}/${uid}`)
}

/** The hook writing the index entry of every SyncTarget created. */
export function registerUidIndexHooks(hooks: KindHookRegistry<HubDeps>): void {
  hooks.register(SYNC_TARGETS.group, SYNC_TARGETS.resource, {
    async prepareCreate(ctx, obj) {
      const { uid, name } = obj.metadata
      if (uid && name) await rememberUid(ctx.deps.kv, ctx.space.id, uid, name)
      return obj
    },
  })
}
