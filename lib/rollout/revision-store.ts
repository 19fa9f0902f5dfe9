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
 * Every stored value carries its format (`format: 1`) and is checked with zod when read: one that
 * does not decode is an error naming its key (the step fails and is retried), never taken for
 * absent, so a release that changes the format must migrate what the last one wrote.
 */
import { z } from 'zod'
import { isApiError } from '../errors.ts'
import type { KubeObject } from '../kube/types.ts'
import type { KvStore } from '../store/types.ts'
import type { RevisionEntry, RevisionRecord, Settling } from './revision.ts'

/** The format of every value this store writes. */
export const REVISION_FORMAT = 1

const RecordSchema = z.object({
  format: z.literal(REVISION_FORMAT),
  number: z.int().min(1),
  cutAt: z.string(),
  objects: z.array(
    z.object({ key: z.string(), hash: z.string(), version: z.string(), namespaced: z.boolean() })
  ),
})
const BodySchema = z.object({
  format: z.literal(REVISION_FORMAT),
  body: z.looseObject({ metadata: z.looseObject({}) }),
})
const SettlingSchema = z.object({
  format: z.literal(REVISION_FORMAT),
  contentKey: z.string(),
  sinceMs: z.number(),
})

/** A stored value of this store that does not decode in the format this release reads. */
export class StoredRevisionFormatError extends Error {
  override name = 'StoredRevisionFormatError'
  constructor(ns: string, key: string, detail: string) {
    super(`${ns} ${key}: not a stored value of format ${REVISION_FORMAT} (${detail})`)
  }
}

function decode<T extends z.ZodType>(schema: T, ns: string, key: string, value: unknown) {
  const r = schema.safeParse(value)
  if (!r.success) throw new StoredRevisionFormatError(ns, key, r.error.issues[0]?.message ?? '')
  return r.data as z.infer<T>
}

const recordOf = (key: string, value: unknown): RevisionRecord => {
  const { format: _f, ...record } = decode(RecordSchema, REVISIONS_NS, key, value)
  return record
}

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
    (await kv.list<unknown>(REVISIONS_NS, prefixOf(r))).map((e) => recordOf(e.key, e.value))
  return {
    revisions,
    async bodies(r, hashes) {
      const keys = [...new Set(hashes)].map((h) => `${prefixOf(r)}${h}`)
      const found = await kv.getMany<unknown>(BODIES_NS, keys)
      const out = new Map<string, KubeObject>()
      for (const [key, entry] of found)
        out.set(
          key.slice(prefixOf(r).length),
          decode(BodySchema, BODIES_NS, key, entry.value).body as KubeObject
        )
      return out
    },
    async cut(r, record, bodies) {
      const wanted = new Set(record.objects.map((o: RevisionEntry) => o.hash))
      for (const hash of wanted) {
        const body = bodies.get(hash)
        if (!body) throw new Error(`revision ${record.number}: no body for ${hash}`)
        await putIfAbsent(kv, BODIES_NS, `${prefixOf(r)}${hash}`, {
          format: REVISION_FORMAT,
          body,
        })
      }
      const key = numberKey(r, record.number)
      if (await putIfAbsent(kv, REVISIONS_NS, key, { format: REVISION_FORMAT, ...record }))
        return record
      const stored = await kv.get<unknown>(REVISIONS_NS, key)
      if (!stored) throw new Error(`revision ${record.number} vanished while it was cut`)
      return recordOf(key, stored.value)
    },
    async settling(r) {
      const e = await kv.get<unknown>(SETTLING_NS, prefixOf(r))
      if (!e) return undefined
      const { format: _f, ...value } = decode(SettlingSchema, SETTLING_NS, prefixOf(r), e.value)
      return { value, version: e.version }
    },
    async settle(r, value, expected) {
      await kv.put(SETTLING_NS, prefixOf(r), { format: REVISION_FORMAT, ...value }, expected)
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
