/**
 * Listing one collection of a mailbox space: the stored objects (read whole) merged with the
 * manifest's entries of that group/resource (and namespace), a stored object winning over a
 * projected copy with the same key, sorted by namespace then name, the predicate applied, then
 * paged by `limit` with this module's own `continue` token: base64url JSON of the list's
 * resourceVersion, the collection and the last key returned. Every page re-reads both sources, so
 * later pages are live, as in the store's own lists. Copy states of the collection (the status the
 * edge reported) are read with one Query alongside and merged into the copies. The list's
 * resourceVersion is the larger of the stored list's and the manifest's version, or, for a
 * `watchable` list, the stored list's rv, which it marked (lib/store/list-marks.ts).
 */
import { z } from 'zod'
import { badRequest } from '../errors.ts'
import type { KubeObject } from '../kube/types.ts'
import { entryKey } from '../store/projection-diff.ts'
import { renderProjected } from '../store/projection-render.ts'
import {
  contentVersion,
  type ManifestEntry,
  type ProjectionStore,
  type StoredCopyState,
} from '../store/projection-types.ts'
import type { ListOptions, ListResult, ObjectStore } from '../store/types.ts'

const TokenSchema = z.object({
  v: z.literal('p1'),
  rv: z.number().int().nonnegative(),
  q: z.string(),
  ns: z.string(),
  name: z.string(),
})
type Token = z.infer<typeof TokenSchema>

const scopeOf = (o: ListOptions) =>
  JSON.stringify([o.cluster, o.group, o.resource, o.namespace ?? null])

function encodeToken(token: Token): string {
  let binary = ''
  for (const byte of new TextEncoder().encode(JSON.stringify(token))) {
    binary += String.fromCharCode(byte)
  }
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
}

function decodeToken(raw: string, opts: ListOptions): Token {
  let parsed: unknown
  try {
    const binary = atob(raw.replaceAll('-', '+').replaceAll('_', '/'))
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0))
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch {
    throw badRequest('continue key is not valid: not an encoded continue token')
  }
  const result = TokenSchema.safeParse(parsed)
  if (!result.success || result.data.q !== scopeOf(opts)) {
    throw badRequest('continue key is not valid for this list')
  }
  return result.data
}

function checkLimit(limit: number | undefined): number | undefined {
  if (limit === undefined || limit === 0) return undefined
  if (!Number.isInteger(limit) || limit < 0) throw badRequest(`invalid limit ${limit}`)
  return limit
}

const nsOf = (o: KubeObject) => o.metadata.namespace ?? ''
const nameOf = (o: KubeObject) => o.metadata.name ?? ''
const keyOf = (ns: string, name: string) => JSON.stringify([ns, name])

function compare(a: [string, string], b: [string, string]): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1
  if (a[1] !== b[1]) return a[1] < b[1] ? -1 : 1
  return 0
}

/**
 * Renders entries whose body is still stored (a lost body hides its copy), each with its copy
 * state from `states` (by entryKey) when that is of the copy.
 */
export async function renderEntries(
  projections: ProjectionStore,
  mailbox: string,
  entries: ManifestEntry[],
  states: ReadonlyMap<string, StoredCopyState>
): Promise<KubeObject[]> {
  if (entries.length === 0) return []
  const bodies = await projections.getBodies(entries.map((e) => e.hash))
  return entries.flatMap((e) => {
    const body = bodies.get(e.hash)
    return body ? [renderProjected(mailbox, e, body, states.get(entryKey(e)))] : []
  })
}

export async function listWithProjections(
  base: ObjectStore,
  projections: ProjectionStore,
  opts: ListOptions
): Promise<ListResult> {
  const limit = checkLimit(opts.limit)
  const token = opts.continue ? decodeToken(opts.continue, opts) : undefined
  const { cluster, group, resource, namespace } = opts
  const ref = { cluster, group, resource, ...(namespace === undefined ? {} : { namespace }) }
  const [stored, manifest, states] = await Promise.all([
    base.list(opts.watchable && !token ? { ...ref, watchable: true } : ref),
    projections.getManifest(cluster),
    projections.listCopyStates(cluster, ref),
  ])
  const storedKeys = new Set(stored.items.map((o) => keyOf(nsOf(o), nameOf(o))))
  const entries = (manifest?.entries ?? []).filter(
    (e) =>
      e.group === group &&
      e.resource === resource &&
      (namespace === undefined || e.namespace === namespace) &&
      !storedKeys.has(keyOf(e.namespace, e.name))
  )
  const projected = await renderEntries(projections, cluster, entries, states)
  const after: [string, string] | undefined = token && [token.ns, token.name]
  const items = [...stored.items, ...projected]
    .filter((o) => !opts.predicate || opts.predicate(o))
    .filter((o) => !after || compare([nsOf(o), nameOf(o)], after) > 0)
    .sort((a, b) => compare([nsOf(a), nameOf(a)], [nsOf(b), nameOf(b)]))
  // A watchable answer is the stored list's rv, marked in the collection's log, which also holds
  // the manifest's change lists (lib/store/list-marks.ts).
  const rv =
    token?.rv ??
    (opts.watchable
      ? Number(stored.resourceVersion)
      : Math.max(Number(stored.resourceVersion), manifest ? contentVersion(manifest) : 0))
  const resourceVersion = String(rv)
  if (limit === undefined || items.length <= limit) return { items, resourceVersion }
  const page = items.slice(0, limit)
  const last = page[page.length - 1]!
  const next = encodeToken({ v: 'p1', rv, q: scopeOf(opts), ns: nsOf(last), name: nameOf(last) })
  const remaining = opts.predicate ? {} : { remainingItemCount: items.length - limit }
  return { items: page, resourceVersion, continue: next, ...remaining }
}
