/**
 * Spaces are kcp logical clusters: a path (`root`, `root:espw`, `root:my-org:wmw-c`) and a stable
 * id that objects are stored under. The registry lives in the key-value store as two records per
 * space (path -> record, id -> path), each written with an absent-only condition so concurrent
 * creators converge on one id. `root` has the id `root`, as in kcp. A space turning Terminating or
 * going moves the `spaces` epoch, so the API's remembered records (space-cache.ts) are read anew.
 */
import { badRequest, notFound } from '../errors.ts'
import { bumpEpoch } from '../store/epochs.ts'
import type { KvStore } from '../store/types.ts'
import { forgetCollections, openCollections } from './space-collections.ts'

export type Space = {
  id: string
  path: string
  /** Path of the parent space; absent for root. */
  parent?: string
  /** Who made it: the Workspace object's uid in the parent, when created through one. */
  workspaceUid?: string
  phase: 'Ready' | 'Terminating'
  /**
   * `indexed`: made with an index of the collections holding its objects (space-collections.ts);
   * absent in spaces made by earlier releases and in mailbox spaces.
   */
  collections?: 'indexed'
}

const BY_PATH = 'space-path'
const BY_ID = 'space-id'
const PATH_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(:[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/

export const ROOT: Space = { id: 'root', path: 'root', phase: 'Ready' }

export function isValidSpacePath(path: string): boolean {
  return PATH_RE.test(path) && (path === 'root' || path.startsWith('root:'))
}

/** A fresh logical-cluster id: 16 lowercase base36 characters, like kcp's. */
export function newSpaceId(random: () => number = Math.random): string {
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz'
  let out = ''
  for (let i = 0; i < 16; i++) out += alphabet[Math.floor(random() * 36)]
  return out
}

export async function getSpaceByPath(kv: KvStore, path: string): Promise<Space | undefined> {
  if (path === 'root') return ROOT
  return (await kv.get<Space>(BY_PATH, path))?.value
}

/** `getSpaceByPath` for many paths at once (one read per 100), by path; absent ones missing. */
export async function getSpacesByPath(
  kv: KvStore,
  paths: readonly string[]
): Promise<Map<string, Space>> {
  const out = new Map<string, Space>()
  if (paths.includes('root')) out.set('root', ROOT)
  const rest = paths.filter((p) => p !== 'root')
  if (rest.length === 0) return out
  for (const [path, entry] of await kv.getMany<Space>(BY_PATH, rest)) out.set(path, entry.value)
  return out
}

/** The path the id names (for good: ids are never reused), if the space exists. */
export async function pathOfId(kv: KvStore, id: string): Promise<string | undefined> {
  if (id === 'root') return 'root'
  return (await kv.get<{ path: string }>(BY_ID, id))?.value.path
}

export async function getSpaceById(kv: KvStore, id: string): Promise<Space | undefined> {
  if (id === 'root') return ROOT
  const path = await pathOfId(kv, id)
  return path === undefined ? undefined : getSpaceByPath(kv, path)
}

/** Resolves what follows `/clusters/`: a path or an id. NotFound when neither exists. */
export async function resolveSpace(kv: KvStore, pathOrId: string): Promise<Space> {
  const space = pathOrId.includes(':')
    ? await getSpaceByPath(kv, pathOrId)
    : ((await getSpaceById(kv, pathOrId)) ?? (await getSpaceByPath(kv, pathOrId)))
  if (!space) throw notFound('workspaces', { group: 'tenancy.kcp.io', name: pathOrId })
  return space
}

/**
 * Creates the space at `path` if absent and returns it; an existing space is returned unchanged,
 * so repeated calls (at-least-once delivery, retries) are harmless. Creation is tried first, with
 * no read before it: almost every call makes a new space (a mailbox per SyncTarget), and the
 * absent-only write of the path record is the check. When the path exists, the id record (and
 * collection index) just written are dropped again and the existing space is read and returned.
 */
export async function ensureSpace(
  kv: KvStore,
  path: string,
  opts: { workspaceUid?: string; id?: string; indexCollections?: boolean } = {}
): Promise<Space> {
  if (!isValidSpacePath(path)) throw badRequest(`invalid space path "${path}"`)
  if (path === 'root') return ROOT
  const parent = path.slice(0, path.lastIndexOf(':'))
  const space: Space = { id: opts.id ?? newSpaceId(), path, parent, phase: 'Ready' }
  if (opts.workspaceUid) space.workspaceUid = opts.workspaceUid
  try {
    await kv.put(BY_ID, space.id, { path }, null)
  } catch (e) {
    // A given id already taken: by this very space when it exists.
    const existing = await getSpaceByPath(kv, path)
    if (existing) return existing
    throw e
  }
  // The index's marker before the record: no object can be created in the space before either.
  if (opts.indexCollections) {
    await openCollections(kv, space.id)
    space.collections = 'indexed'
  }
  try {
    await kv.put(BY_PATH, path, space, null)
  } catch (e) {
    // Someone else created the path first: drop our id record (and index) and use theirs.
    await kv.delete(BY_ID, space.id).catch(() => undefined)
    if (space.collections) await forgetCollections(kv, space.id).catch(() => undefined)
    const winner = await getSpaceByPath(kv, path)
    if (winner) return winner
    throw e
  }
  return space
}

export async function markSpaceTerminating(kv: KvStore, space: Space): Promise<void> {
  if (space.id === 'root') return
  const entry = await kv.get<Space>(BY_PATH, space.path)
  if (!entry || entry.value.phase === 'Terminating') return
  await kv.put(BY_PATH, space.path, { ...entry.value, phase: 'Terminating' }, entry.version)
  // What the API remembered of the space is not trusted any more (space-cache.ts).
  await bumpEpoch(kv, 'spaces')
}

/** Removes the registry records; the caller has already deleted the space's objects. */
export async function forgetSpace(kv: KvStore, space: Space): Promise<void> {
  if (space.id === 'root') return
  await kv.delete(BY_PATH, space.path).catch(() => undefined)
  await kv.delete(BY_ID, space.id).catch(() => undefined)
  await forgetCollections(kv, space.id).catch(() => undefined)
  await bumpEpoch(kv, 'spaces')
}

/**
 * The spaces directly under `parent`, in path order, after the child named `after` (exclusive):
 * one bounded read of at most `limit` registry entries, so a page costs the same whatever the
 * number of spaces. Deeper descendants read on the way are left out, so a page may hold fewer
 * children than entries read: `last` is the last entry read (relative to `parent`, a descendant's
 * `child:grandchild` path included), where the next page starts, and `more` says whether the
 * read was full, so more may follow.
 */
export async function childSpaces(
  kv: KvStore,
  parent: string,
  page: { after?: string | undefined; limit: number }
): Promise<{ spaces: Space[]; last: string | undefined; more: boolean }> {
  const prefix = `${parent}:`
  const after = page.after === undefined ? undefined : `${prefix}${page.after}`
  const read = await kv.list<Space>(BY_PATH, prefix, {
    ...(after !== undefined ? { after } : {}),
    limit: page.limit,
  })
  const children = read
    .map((e) => e.value)
    .filter((s) => !s.path.slice(prefix.length).includes(':'))
  const lastPath = read[read.length - 1]?.key
  const last = lastPath?.slice(prefix.length)
  return { spaces: children, last, more: read.length >= page.limit }
}

/** Every registered space (root included), in path order. */
export async function listSpaces(kv: KvStore): Promise<Space[]> {
  const rest = (await kv.list<Space>(BY_PATH)).map((e) => e.value)
  return [ROOT, ...rest.filter((s) => s.path !== 'root')]
}
