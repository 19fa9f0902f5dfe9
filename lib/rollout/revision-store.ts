/**
 * Where a Rollout's revisions live (docs/architecture/placement.md, "Rollout"): the key-value
 * store, so stateless invocations, restarts and new releases keep them. Per Rollout (by its
 * space id and uid, so a Rollout deleted and made again starts afresh): one record per revision
 * (ns `rollout-revisions`, key `<space>/<uid>/<number, 10 digits>`, listed in order), each body
 * once per content (ns `rollout-bodies`, key `<space>/<uid>/<hash>`, immutable), and the
 * settling memory (ns `rollout-settling`). A cut writes the bodies first, then the record only
 * if absent, so two steps cutting at once agree on one record and a crash between leaves only
 * bodies, which the next cut or prune reuses or removes. Pruning keeps the revisions asked for
 * (the completed one, the one in flight, the newest: at most three) and the bodies they name.
 */
import { isApiError } from '../errors.ts'
import type { KubeObject } from '../kube/types.ts'
import type { KvStore } from '../store/types.ts'
import type { RevisionEntry, RevisionRecord, Settling } from './revision.ts'

export const REVISIONS_NS = 'rollout-revisions'
export const BODIES_NS = 'rollout-bodies'
export const SETTLING_NS = 'rollout-settling'

/** One Rollout's place in the store. */
export type RolloutRef = { spaceId: string; uid: string }

const prefixOf = (r: RolloutRef) => `${r.spaceId}/${r.uid}/`
const numberKey = (r: RolloutRef, n: number) => `${prefixOf(r)}${String(n).padStart(10, '0')}`

export type RevisionStore = {
  /** Every stored revision of the Rollout, oldest first. */
  revisions(r: RolloutRef): Promise<RevisionRecord[]>
  /** The bodies of `hashes` (missing ones are left out). */
  bodies(r: RolloutRef, hashes: readonly string[]): Promise<Map<string, KubeObject>>
  /**
   * Stores revision `number` with its bodies; answers the record now stored under that number
   * (another step's, when it cut first).
   */
  cut(
    r: RolloutRef,
    record: RevisionRecord,
    bodies: ReadonlyMap<string, KubeObject>
  ): Promise<RevisionRecord>
  settling(r: RolloutRef): Promise<{ value: Settling; version: number } | undefined>
  /** Remembers a settling content, with the version read as precondition (null: absent). */
  settle(r: RolloutRef, value: Settling, expected: number | null): Promise<void>
  /** Removes the revisions not in `keep` and the bodies no kept revision names. */
  prune(r: RolloutRef, keep: ReadonlySet<number>): Promise<void>
}

async function putIfAbsent(kv: KvStore, ns: string, key: string, value: unknown) {
  try {
    await kv.put(ns, key, value, null)
    return true
  } catch (e) {
    // 409: AlreadyExists (absent asked, present found) or Conflict, both meaning it is there.
    if (isApiError(e) && e.code === 409) return false
    throw e
  }
}

export function createRevisionStore(kv: KvStore): RevisionStore {
  const revisions = async (r: RolloutRef) =>
    (await kv.list<RevisionRecord>(REVISIONS_NS, prefixOf(r))).map((e) => e.value)
  return {
    revisions,
    async bodies(r, hashes) {
      const keys = [...new Set(hashes)].map((h) => `${prefixOf(r)}${h}`)
      const found = await kv.getMany<KubeObject>(BODIES_NS, keys)
      const out = new Map<string, KubeObject>()
      for (const [key, entry] of found) out.set(key.slice(prefixOf(r).length), entry.value)
      return out
    },
    async cut(r, record, bodies) {
      const wanted = new Set(record.objects.map((o: RevisionEntry) => o.hash))
      for (const hash of wanted) {
        const body = bodies.get(hash)
        if (!body) throw new Error(`revision ${record.number}: no body for ${hash}`)
        await putIfAbsent(kv, BODIES_NS, `${prefixOf(r)}${hash}`, body)
      }
      if (await putIfAbsent(kv, REVISIONS_NS, numberKey(r, record.number), record)) return record
      const stored = await kv.get<RevisionRecord>(REVISIONS_NS, numberKey(r, record.number))
      if (!stored) throw new Error(`revision ${record.number} vanished while it was cut`)
      return stored.value
    },
    async settling(r) {
      const e = await kv.get<Settling>(SETTLING_NS, prefixOf(r))
      return e ? { value: e.value, version: e.version } : undefined
    },
    async settle(r, value, expected) {
      await kv.put(SETTLING_NS, prefixOf(r), value, expected)
    },
    async prune(r, keep) {
      const all = await revisions(r)
      const kept = all.filter((rec) => keep.has(rec.number))
      const named = new Set(kept.flatMap((rec) => rec.objects.map((o) => o.hash)))
      for (const rec of all)
        if (!keep.has(rec.number)) await kv.delete(REVISIONS_NS, numberKey(r, rec.number))
      for (const body of await kv.list(BODIES_NS, prefixOf(r))) {
        const hash = body.key.slice(prefixOf(r).length)
        if (!named.has(hash)) await kv.delete(BODIES_NS, body.key)
      }
    },
  }
}
