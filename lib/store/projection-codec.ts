/**
 * The stored form of manifests and projection change lists: JSON, gzip-compressed past
 * `COMPRESS_ABOVE` like object bodies (body-codec.ts), kept inline in one item. A manifest whose
 * encoding exceeds `MANIFEST_LIMIT` bytes is refused with 413 (about ten thousand entries of
 * typical size fit); the change list of one write, per group/resource, must fit in `INLINE_LIMIT`
 * bytes, which only a write that replaces most of a very large manifest at once can exceed.
 * Decoding validates with zod: a malformed stored item is an internal error.
 */
import { z } from 'zod'
import { internalError, tooLarge } from '../errors.ts'
import { bodyText, COMPRESS_ABOVE, gzip, INLINE_LIMIT } from './body-codec.ts'
import type { CopyState, ManifestEntry, StoredCopyState } from './projection-types.ts'
import type { ChangeType } from './types.ts'

/** Largest stored manifest, in encoded (compressed) bytes. */
export const MANIFEST_LIMIT = 300_000

/**
 * One copy a write added, changed or removed. For a manifest write `entry.rv` is that write's rv;
 * for a state write (projection-state.ts) the entry is unchanged and `state.rv` is the write's rv.
 * `state` is the copy's state to render with, when it has one.
 */
export type ProjectionChange = { type: ChangeType; entry: ManifestEntry; state?: StoredCopyState }

export const EntrySchema = z.object({
  group: z.string(),
  version: z.string(),
  resource: z.string(),
  namespace: z.string(),
  name: z.string(),
  hash: z.string(),
  specHash: z.string(),
  rv: z.number(),
  uid: z.string(),
  created: z.string(),
  generation: z.number(),
  removing: z.string().optional(),
  sources: z.array(z.object({ space: z.string(), placements: z.array(z.string()) })).optional(),
  added: z.number().optional(),
})
const EntriesSchema = z.array(EntrySchema)
/** A copy state without uid and rv, which its item keeps as attributes. */
export const StateBodySchema = z.object({
  status: z.record(z.string(), z.json()),
  observedGeneration: z.number().optional(),
  associated: z
    .array(
      z.object({
        kind: z.string(),
        namespace: z.string(),
        name: z.string(),
        phase: z.string().optional(),
        ready: z.boolean().optional(),
        reason: z.string().optional(),
      })
    )
    .optional(),
  problem: z.object({ reason: z.string(), message: z.string() }).optional(),
  gone: z.boolean().optional(),
})
const ChangesSchema = z.array(
  z.object({
    type: z.enum(['ADDED', 'MODIFIED', 'DELETED']),
    entry: EntrySchema,
    state: StateBodySchema.extend({ uid: z.string(), rv: z.number() }).optional(),
  })
)

async function encodeJson(value: unknown, limit: number, what: string): Promise<Uint8Array> {
  const bytes = new TextEncoder().encode(JSON.stringify(value))
  const data = bytes.length > COMPRESS_ABOVE ? await gzip(bytes) : bytes
  if (data.length > limit) {
    throw tooLarge(`${what} is too large: ${data.length} encoded bytes exceeds ${limit}`)
  }
  return data
}

async function decodeJson<T>(data: Uint8Array, schema: z.ZodType<T>, what: string): Promise<T> {
  let parsed: unknown
  try {
    parsed = JSON.parse(await bodyText(data))
  } catch (e) {
    throw internalError(`stored ${what} is not JSON`, e)
  }
  const result = schema.safeParse(parsed)
  if (!result.success) throw internalError(`stored ${what} is malformed`)
  return result.data
}

export function encodeEntries(entries: ManifestEntry[], mailbox: string): Promise<Uint8Array> {
  return encodeJson(entries, MANIFEST_LIMIT, `the manifest of mailbox ${mailbox}`)
}

export function decodeEntries(data: Uint8Array): Promise<ManifestEntry[]> {
  return decodeJson(data, EntriesSchema, 'manifest')
}

export function encodeChanges(changes: ProjectionChange[], what: string): Promise<Uint8Array> {
  return encodeJson(changes, INLINE_LIMIT, what)
}

export function decodeChanges(data: Uint8Array): Promise<ProjectionChange[]> {
  return decodeJson(data, ChangesSchema, 'projection change list')
}

/** The stored form of a copy state's content (uid and rv are attributes of its item). */
export function encodeState(state: CopyState, what: string): Promise<Uint8Array> {
  const { uid: _uid, ...content } = state
  return encodeJson(content, INLINE_LIMIT, what)
}

export async function decodeState(
  data: Uint8Array,
  uid: string,
  rv: number
): Promise<StoredCopyState> {
  return { ...(await decodeJson(data, StateBodySchema, 'copy state')), uid, rv }
}
