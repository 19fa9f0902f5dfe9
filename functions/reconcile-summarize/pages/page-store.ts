/**
 * Where a placement's pages live between invocations: the key-value store, namespace
 * `summarize-pages` (like the resync cursors and the translate step's version memory), one value
 * per page at `<key>#<index>` (page-codec.ts) and one pass record at `<key>` — the page size when
 * pages had to be made smaller than the plan's (a page that did not fit one value), how many
 * pages the last combination used, and when it was written (page-freshness.ts). Every write has
 * a precondition on the version read (absent: only if still absent); losing that race to another
 * run of the same key is no failure: that run wrote what this one would have. All pages and the
 * record are read in one BatchGetItem per 100.
 */
import { isApiError } from '../../../lib/errors.ts'
import type { KvStore } from '../../../lib/store/types.ts'
import { decodePage, encodePage } from './page-codec.ts'
import type { PageFacts } from './page-facts.ts'

export const PAGES_NS = 'summarize-pages'

export type PassRecord = {
  /** The page size the plan must use (smaller than its own), if any. */
  pageSize?: number
  /** Pages the last combination used. */
  pages?: number
  /** When the last combination was written (epoch ms). */
  combinedAt?: number
}

/** A page as stored: its facts (undefined: absent or not decodable) and the value's version. */
export type StoredPage = { facts?: PageFacts; version: number | null }

const pageKey = (key: string, index: number) => `${key}#${index}`

/** Conflict or AlreadyExists: another run of the key wrote first. */
const raced = (e: unknown) => isApiError(e) && e.code === 409

export async function readPass(
  kv: KvStore,
  key: string
): Promise<{ pass: PassRecord; version: number | null }> {
  const entry = await kv.get<PassRecord>(PAGES_NS, key)
  return { pass: entry?.value ?? {}, version: entry?.version ?? null }
}

/** Pages 0..count-1 of `key`, in order. */
export async function readPages(kv: KvStore, key: string, count: number): Promise<StoredPage[]> {
  const keys = Array.from({ length: count }, (_, i) => pageKey(key, i))
  const found = await kv.getMany(PAGES_NS, keys)
  return Promise.all(
    keys.map(async (k): Promise<StoredPage> => {
      const entry = found.get(k)
      if (!entry) return { version: null }
      const facts = await decodePage(entry.value)
      return facts ? { facts, version: entry.version } : { version: entry.version }
    })
  )
}

/** Stores page `index`; false when another run stored it meanwhile. PageTooLarge unwritten. */
export async function writePage(
  kv: KvStore,
  at: { key: string; index: number },
  facts: PageFacts,
  expectedVersion: number | null
): Promise<boolean> {
  const value = await encodePage(facts)
  try {
    await kv.put(PAGES_NS, pageKey(at.key, at.index), value, expectedVersion)
    return true
  } catch (e) {
    if (raced(e)) return false
    throw e
  }
}

/** Writes the pass record; false when another run wrote it meanwhile. */
export async function writePass(
  kv: KvStore,
  key: string,
  pass: PassRecord,
  expectedVersion: number | null
): Promise<boolean> {
  try {
    await kv.put(PAGES_NS, key, pass, expectedVersion)
    return true
  } catch (e) {
    if (raced(e)) return false
    throw e
  }
}

/** Deletes pages from..to-1 of `key` (those a smaller plan no longer has). */
export async function dropPages(kv: KvStore, key: string, from: number, to: number) {
  for (let i = from; i < to; i++) await kv.delete(PAGES_NS, pageKey(key, i))
}

/** Deletes every page of `key` and its record (the key's placement has none any more). */
export async function dropAll(kv: KvStore, key: string): Promise<boolean> {
  const { version } = await readPass(kv, key)
  if (version === null) return false
  for (const entry of await kv.list(PAGES_NS, `${key}#`)) await kv.delete(PAGES_NS, entry.key)
  await kv.delete(PAGES_NS, key, version).catch((e) => {
    if (!raced(e)) throw e
  })
  return true
}
