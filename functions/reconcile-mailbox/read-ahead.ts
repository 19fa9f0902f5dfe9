/**
 * What a batch of mailbox runs reads ahead, in a few requests for the whole batch instead of two
 * gets per run: each key's SyncTarget (by the name its uid-index entry holds, one read per
 * inventory space) and each key's Workspace in root:espw. A run takes its key's entries once
 * (`take`): a key run again later in the batch (requeued) reads anew, since its own first run may
 * have written since. A key the read ahead could not answer (no index entry, its inventory space
 * gone, a failed read) is not in it, and its run reads for itself. Read at the batch's start, an
 * entry may be a few seconds old when its run uses it, as an informer's cache is: every write the
 * run makes carries a precondition (create absent-only, delete by uid, update by resourceVersion),
 * so a stale entry costs a conflict and a retry, never a lost write.
 */
import { ESPW, SYNC_TARGETS, WORKSPACES } from '../../lib/apis/gvr.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { parseMailboxName } from './names.ts'

/** `null`: read ahead and absent; undefined: not read ahead. */
export type Ahead = KubeObject | null | undefined

export type MailboxAhead = {
  /** The key's SyncTarget, by its indexed name (its uid not checked yet), once. */
  syncTarget(key: string): Ahead
  /** The key's Workspace in root:espw, once. */
  workspace(key: string): Ahead
}

function once(entries: Map<string, KubeObject | null>): (key: string) => Ahead {
  return (key) => {
    const entry = entries.get(key)
    entries.delete(key)
    return entry
  }
}

/** Reads, per key, what `found` holds under the name `nameOf(key)` gives: null when absent. */
function byKey(
  keys: readonly string[],
  found: Map<string, KubeObject>,
  nameOf: (key: string) => string | undefined
): Map<string, KubeObject | null> {
  const out = new Map<string, KubeObject | null>()
  for (const key of keys) {
    const name = nameOf(key)
    if (name !== undefined) out.set(key, found.get(name) ?? null)
  }
  return out
}

async function syncTargets(
  client: HubClient,
  keys: readonly string[],
  names: ReadonlyMap<string, string>
): Promise<Map<string, KubeObject | null>> {
  const bySpace = new Map<string, string[]>()
  for (const key of keys) {
    const spaceId = parseMailboxName(key)?.inventorySpaceId
    if (spaceId === undefined || !names.has(key)) continue
    const keysOfSpace = bySpace.get(spaceId)
    if (keysOfSpace) keysOfSpace.push(key)
    else bySpace.set(spaceId, [key])
  }
  const out = new Map<string, KubeObject | null>()
  await Promise.all(
    [...bySpace].map(async ([spaceId, spaceKeys]) => {
      const wanted = spaceKeys.map((k) => names.get(k) as string)
      // A space gone (404) or a failed read: these keys' runs read for themselves.
      const found = await client.getMany(spaceId, SYNC_TARGETS, wanted).catch(() => undefined)
      if (!found) return
      for (const [k, v] of byKey(spaceKeys, found, (k) => names.get(k))) out.set(k, v)
    })
  )
  return out
}

/** Reads ahead for `keys` (mailbox names), with their uid-index names when those were read. */
export async function readAhead(
  client: HubClient,
  keys: readonly string[],
  names: Promise<ReadonlyMap<string, string> | undefined>
): Promise<MailboxAhead> {
  const [targets, workspaces] = await Promise.all([
    names.then((known) => (known ? syncTargets(client, keys, known) : new Map())),
    client
      .getMany(ESPW, WORKSPACES, keys)
      .then((found) => byKey(keys, found, (k) => k))
      .catch(() => new Map<string, KubeObject | null>()),
  ])
  return { syncTarget: once(targets), workspace: once(workspaces) }
}
