/**
 * Bearer tokens. A token is stored only as its SHA-256 hash (hex) in the key-value store, with the
 * principal it stands for: a name, whether it is an admin, and the spaces it may reach. A scope is a
 * space path (`root:my-org`) or a path ending in `:*` (`root:my-org:*`: every descendant). Admins
 * reach everything, including the cross-space `/clusters/*` views. Edge credentials (one per
 * mailbox) are principals with a single mailbox scope and `kind: 'edge'`; lib/edge/edge-scope.ts
 * says which routes they reach (their own mailbox's edge API, nothing of the hub API). Tokens issued through
 * the Token resource (lib/hub/tokens.ts) carry `expiresAt` and the Token's name: from that moment
 * they are refused (401) and their record is deleted on the spot (lazily: when next presented). The
 * bootstrap admin token's record is kept current by bootstrap-admin.ts.
 * Known tokens are cached per key-value store object (`TOKEN_CACHE_MS`): the cache belongs to the
 * store it caches, so a hub never accepts a token from another hub's store, and whoever holds the
 * store, the hub or a maintenance tool alike, reaches that cache when it revokes or re-registers.
 */
import { BoundedMap } from '../bounded-map.ts'
import { forbidden, isApiError, unauthorized } from '../errors.ts'
import { bumpEpoch, currentEpoch } from '../store/epochs.ts'
import { perStore } from '../store/per-store.ts'
import type { KvStore } from '../store/types.ts'

export type Principal = {
  name: string
  kind: 'admin' | 'user' | 'edge'
  /** Space paths (or `path:*` patterns) this principal may use; ignored for admins. */
  spaces: string[]
  groups?: string[]
  /** RFC 3339; from then on the token is refused. Absent: no expiry (bootstrap admin, edges). */
  expiresAt?: string
  /** Name of the Token object (root space) it was issued as, for tokens issued through the API. */
  token?: string
}

const TOKENS = 'tokens'
/**
 * Known tokens are remembered per store object: trusted without a lookup for up to TOKEN_TRUST_MS
 * while the `credentials` epoch (lib/store/epochs.ts) stands where it stood when the record was
 * read — every replacement or revocation moves it — and for TOKEN_CACHE_MS when the epoch cannot
 * be read. Each token's trust is its own share of the last TOKEN_TRUST_SPREAD_MS of that
 * (`trustMsOf`, from its hash): a fleet whose tokens were all read in the same minute (a process
 * that just started) re-reads them over two minutes, not all in the same second ten minutes
 * later. At most MAX_CACHED are remembered, the longest-read going first past it (20,000: twice a
 * 10,000-edge fleet, whose tokens are all in use every minute).
 */
export const TOKEN_CACHE_MS = 10_000
export const TOKEN_TRUST_MS = 10 * 60_000
export const TOKEN_TRUST_SPREAD_MS = 2 * 60_000
const MAX_CACHED = 20_000

type TokenCache = Map<string, { at: number; epoch: number | undefined; principal: Principal }>
/** The cache of a store object: dropped with it, never shared with another store. */
const cacheOf = perStore((): TokenCache => new BoundedMap(MAX_CACHED))

/** How long the token of `hash` (hex SHA-256) is trusted while the epoch stands, ms. */
export const trustMsOf = (hash: string) =>
  TOKEN_TRUST_MS - ((Number.parseInt(hash.slice(0, 8), 16) || 0) % TOKEN_TRUST_SPREAD_MS)

export async function hashToken(token: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token))
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('')
}

/** A new random token: 32 bytes, base64url. */
export function generateToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  let bin = ''
  for (const b of bytes) bin += String.fromCharCode(b)
  return btoa(bin).replaceAll('+', '-').replaceAll('/', '_').replaceAll('=', '')
}

/** Stores the hash of `token` for `principal` (replacing any previous record of that token). */
export async function registerToken(
  kv: KvStore,
  token: string,
  principal: Principal
): Promise<void> {
  await registerTokenHash(kv, await hashToken(token), principal)
}

/** Stores `principal` under an already computed token hash (see registerToken). */
export async function registerTokenHash(
  kv: KvStore,
  hash: string,
  principal: Principal
): Promise<void> {
  cacheOf(kv).delete(hash)
  try {
    // A new record: no process can have cached it, so the epoch need not move.
    await kv.put(TOKENS, hash, principal, null)
  } catch (e) {
    if (!isApiError(e) || e.reason !== 'AlreadyExists') throw e
    await kv.put(TOKENS, hash, principal)
    await bumpEpoch(kv, 'credentials')
  }
}

/** The principal stored for a token hash, if any (expired or not). */
export async function principalOfHash(kv: KvStore, hash: string): Promise<Principal | undefined> {
  return (await kv.get<Principal>(TOKENS, hash))?.value
}

/** Every token record, by hash (a full read of the namespace: for rare one-off work only). */
export async function allTokenRecords(
  kv: KvStore
): Promise<{ hash: string; principal: Principal }[]> {
  const entries = await kv.list<Principal>(TOKENS)
  return entries.map((e) => ({ hash: e.key, principal: e.value }))
}

/** Whether the principal's token has expired at `now` (ms); an unreadable expiry counts as expired. */
export function isExpired(p: Principal, now: number): boolean {
  if (p.expiresAt === undefined) return false
  const at = Date.parse(p.expiresAt)
  return Number.isNaN(at) || at <= now
}

export async function revokeToken(kv: KvStore, token: string): Promise<void> {
  const hash = await hashToken(token)
  cacheOf(kv).delete(hash)
  await kv.delete(TOKENS, hash).catch(() => undefined)
  await bumpEpoch(kv, 'credentials')
}

/**
 * Revokes by the stored hash, for rotation where the old token itself is not known. Revoking an
 * unknown hash is a no-op; a failed delete (or move of the epoch) throws, so a rotation never
 * silently leaves the old token working. The cache of `kv` forgets it at once; other processes
 * once they read the moved `credentials` epoch (within EPOCH_MAX_AGE_MS), or within
 * TOKEN_CACHE_MS if they cannot read it.
 */
export async function revokeTokenHash(kv: KvStore, hash: string): Promise<void> {
  cacheOf(kv).delete(hash)
  await kv.delete(TOKENS, hash)
  await bumpEpoch(kv, 'credentials')
}

/**
 * The principal of an `Authorization` header value at time `now` (ms); 401 when absent, unknown
 * or expired. An expired token's record is deleted (version-guarded; a failure only leaves it for
 * the next attempt, which refuses it again).
 */
export async function authenticate(
  kv: KvStore,
  header: string | undefined,
  now: number = Date.now()
): Promise<Principal> {
  const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null
  if (!m?.[1]) throw unauthorized()
  const hash = await hashToken(m[1])
  const cache = cacheOf(kv)
  const hit = cache.get(hash)
  // Read before the record, so a record read after it is never trusted past a later move.
  const epoch = await currentEpoch(kv, 'credentials', now)
  if (hit && now >= hit.at && isTrusted(hit, { epoch, now, trustMs: trustMsOf(hash) })) {
    if (!isExpired(hit.principal, now)) return hit.principal
    cache.delete(hash)
  }
  const entry = await kv.get<Principal>(TOKENS, hash)
  if (!entry) throw unauthorized()
  if (isExpired(entry.value, now)) {
    cache.delete(hash)
    await kv.delete(TOKENS, hash, entry.version).catch(() => undefined)
    throw unauthorized()
  }
  cache.set(hash, { at: now, epoch, principal: entry.value })
  return entry.value
}

/** Whether a cached record may be used without a lookup (its trust, TOKEN_CACHE_MS). */
function isTrusted(
  hit: { at: number; epoch: number | undefined },
  at: { epoch: number | undefined; now: number; trustMs: number }
): boolean {
  const age = at.now - hit.at
  if (at.epoch !== undefined && hit.epoch !== undefined)
    return at.epoch === hit.epoch && age < at.trustMs
  return age < TOKEN_CACHE_MS
}

export function scopeCovers(scope: string, path: string): boolean {
  if (scope.endsWith(':*')) return path.startsWith(scope.slice(0, -1))
  return scope === path
}

export function maySee(principal: Principal, spacePath: string): boolean {
  if (principal.kind === 'admin') return true
  return principal.spaces.some((s) => scopeCovers(s, spacePath))
}

/**
 * The 403 of a space the principal cannot reach, naming the space as the client wrote it (`ref`:
 * a path or an id), never what the hub found there: the same answer whether it exists or not,
 * as kube answers 403 for a namespace one cannot read regardless of its existence.
 */
export function cannotReach(principal: Principal, ref: string) {
  return forbidden(`${principal.kind} "${principal.name}" cannot access workspace "${ref}"`)
}

/** 403 unless the principal may use the space; `ref` is how the request named it (default its path). */
export function authorizeSpace(principal: Principal, spacePath: string, ref = spacePath): void {
  if (!maySee(principal, spacePath)) throw cannotReach(principal, ref)
}

/** 403 unless admin: cross-space views and token administration. */
export function authorizeAdmin(principal: Principal, what: string): void {
  if (principal.kind !== 'admin')
    throw forbidden(`${principal.kind} "${principal.name}" cannot ${what}: admin only`)
}
