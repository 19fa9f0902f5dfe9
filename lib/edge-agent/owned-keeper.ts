/**
 * The ownership record kept in the edge cluster itself, so that a new agent — its pod recreated,
 * its state folder gone — knows exactly the objects it created: ConfigMaps `<name>-<i>` in the
 * agent's namespace (layout: owned-shards.ts), read whole at start and written, shard by shard,
 * whenever the record changes (before a create, with the pending entry; after applies; after
 * prunes), each write with a resourceVersion precondition.
 *
 * - `ready()` reads the record when it has not been read yet, or after a write found it changed
 *   by someone else (409, or 404 for a shard deleted meanwhile); it throws when the record cannot
 *   be listed or parsed, and the caller then does nothing — no apply, no prune, no adoption —
 *   and tries again next poll. On a re-read the working copy is replaced by what the cluster
 *   holds: anything written there by this agent is back, and anything it held only in memory is
 *   covered by the pending-create protocol (a create is preceded by a pending entry; its object
 *   is adopted by its marker, marker.ts).
 * - `save()` writes the shards whose content changed; a failure throws (the caller's poll fails;
 *   the next save writes the same content again).
 * - A record absent from the cluster (no shard at all) is taken from `importFrom`, the
 *   `owned.json` an earlier version kept in the state folder, when there is one: written to the
 *   cluster, then renamed `owned.json.imported-<ms>`.
 *
 * `owned` is one Map for the agent's life: apply.ts and prune.ts change it, a re-read refills it.
 */
import { rename } from 'node:fs/promises'
import type { Logger } from '../log.ts'
import { isRemoteError } from '../remote/remote-error.ts'
import type { EdgeKube } from './kube-client.ts'
import { agentIdentity } from './marker.ts'
import {
  confirmWrite,
  type Layout,
  parseShards,
  planWrites,
  shardConfigMap,
  shardIndexOf,
  shardName,
} from './owned-shards.ts'
import { loadOwned, type Owned } from './ownership.ts'

export const OWNED_RECORD_NAME = 'edgeplane-agent-owned'
/** What the record needs of the agent's RBAC in its namespace (manifests-rbac.ts grants it). */
export const RECORD_VERBS = ['list', 'create', 'update']

const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' }

export type KeeperDeps = {
  kube: EdgeKube
  namespace: string
  name: string
  log: Logger
  /** An `owned.json` of an earlier version, imported when the cluster holds no record. */
  importFrom?: string
  now: () => Date
  /** Bytes of reservations per shard (owned-shards.ts; tests make it small). */
  shardBudget?: number
}

export type OwnedKeeper = {
  readonly owned: Owned
  /** The agent's name in its marker: `<namespace>/<name>` of the record. */
  readonly identity: string
  /** Reads the record if needed; true when it did (the working copy was replaced). */
  ready(): Promise<boolean>
  save(): Promise<void>
  /** Whether an object key (refs.ts) names one of the record's own ConfigMaps. */
  holds(key: string): boolean
}

const errText = (e: unknown) => (e instanceof Error ? e.message : String(e))

export class RecordChanged extends Error {
  override name = 'RecordChanged'
}

export function createOwnedKeeper(d: KeeperDeps): OwnedKeeper {
  const owned: Owned = new Map()
  let layout: Layout | undefined
  const where = `${d.namespace}/${d.name}`

  async function read(): Promise<boolean> {
    const items = await d.kube.list(CONFIGMAPS, d.namespace)
    const parsed = parseShards(d.name, items)
    if (parsed.duplicates.length > 0)
      d.log.warn('ownership record: keys in two shards, kept from the lower', {
        record: where,
        keys: parsed.duplicates.slice(0, 20),
      })
    owned.clear()
    for (const [k, v] of parsed.owned) owned.set(k, v)
    layout = parsed.layout
    if (layout.shards.size === 0 && d.importFrom) await importLocal(d.importFrom)
    d.log.info('ownership record read', { record: where, objects: owned.size })
    return true
  }

  async function importLocal(path: string): Promise<void> {
    const local = await loadOwned(path, d.now().getTime())
    if (local.problem) d.log.error(local.problem, { path })
    if (local.owned.size === 0) return
    for (const [k, v] of local.owned) owned.set(k, v)
    try {
      await save()
    } catch (e) {
      layout = undefined
      throw e
    }
    await rename(path, `${path}.imported-${d.now().getTime()}`)
    d.log.info('ownership record imported from the state folder', {
      record: where,
      objects: owned.size,
    })
  }

  async function save(): Promise<void> {
    if (!layout) throw new Error(`the ownership record ${where} has not been read`)
    const current = layout
    for (const w of planWrites(current, owned, d.shardBudget)) {
      const body = shardConfigMap(d.name, d.namespace, w)
      const ref = { ...CONFIGMAPS, namespace: d.namespace, name: shardName(d.name, w.index) }
      let written: Awaited<ReturnType<EdgeKube['update']>>
      try {
        written =
          w.rv === undefined ? await d.kube.create(ref, body) : await d.kube.update(ref, body)
      } catch (e) {
        // 404 on a create: the namespace is missing, which reading again does not change.
        const changed = isRemoteError(e, 409) || (w.rv !== undefined && isRemoteError(e, 404))
        if (!changed) throw e
        layout = undefined
        throw new RecordChanged(
          `the ownership record ${where} changed in the edge cluster (${errText(e)}); reading it again`
        )
      }
      confirmWrite(current, owned, w, written.metadata.resourceVersion ?? '')
    }
  }

  return {
    owned,
    identity: agentIdentity(d.namespace, d.name),
    ready: () => (layout ? Promise.resolve(false) : read()),
    save,
    holds: (key) => {
      const prefix = `/configmaps/${d.namespace}/`
      return key.startsWith(prefix) && shardIndexOf(d.name, key.slice(prefix.length)) !== undefined
    },
  }
}
