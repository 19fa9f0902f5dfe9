/**
 * The bootstrap admin token: the Worker's ADMIN_TOKEN secret, or the local stack's admin-token
 * file. One key-value record (ns `admin-token`, key `bootstrap`) names the hash of the current one,
 * the hashes it replaced (`retired`, the newest 100, never accepted again) and those whose
 * revocation is not confirmed yet (`pending`). `ensureBootstrapAdmin` runs at every start (every
 * isolate's first request) with the configured token:
 * - same hash as recorded: its principal is re-registered if missing and pending revocations are
 *   retried ('current');
 * - a new token: a versioned conditional put records it and moves the old hash to `retired` and
 *   `pending` (on Conflict: read again and decide again, so concurrent isolates with the same
 *   token agree); the new principal is registered; the record is read again, and if another start
 *   recorded a different token meanwhile this one is revoked and reported 'retired'; then the
 *   pending hashes are revoked — a failure throws, leaving them pending for the next start, so
 *   the previous token never keeps working silently — and `pending` is cleared ('rotated');
 * - a retired token (a stale isolate of the previous deployment, or an operator reusing an old
 *   token): nothing is registered ('retired'; the caller reports it loudly). Going back to an
 *   old token therefore needs a fresh one instead.
 * The first record of a store that predates it ('registered') also retires every earlier
 * bootstrap admin record (principal `admin`, kind admin, not issued through the Token API), which
 * a full read of the token namespace finds once.
 */
import { z } from 'zod'
import { internalError, isApiError } from '../errors.ts'
import { timestamp } from '../kube/time.ts'
import type { KvStore } from '../store/types.ts'
import {
  allTokenRecords,
  hashToken,
  type Principal,
  principalOfHash,
  registerTokenHash,
  revokeTokenHash,
} from './tokens.ts'

export const ADMIN_TOKEN_NS = 'admin-token'
const KEY = 'bootstrap'
const MAX_RETIRED = 100
const PUT_ATTEMPTS = 8

export const BOOTSTRAP_ADMIN: Principal = {
  name: 'admin',
  kind: 'admin',
  spaces: [],
  groups: ['system:masters'],
}

const RecordSchema = z.object({
  hash: z.string().min(1),
  since: z.string(),
  retired: z.array(z.string()).default([]),
  pending: z.array(z.string()).default([]),
})
export type BootstrapAdminRecord = z.infer<typeof RecordSchema>

export type AdminOutcome = 'current' | 'registered' | 'rotated' | 'retired'

const isConflict = (e: unknown) =>
  isApiError(e) && (e.reason === 'Conflict' || e.reason === 'AlreadyExists')

async function readRecord(
  kv: KvStore
): Promise<{ record?: BootstrapAdminRecord; version?: number }> {
  const entry = await kv.get(ADMIN_TOKEN_NS, KEY)
  if (!entry) return {}
  const parsed = RecordSchema.safeParse(entry.value)
  // An unreadable record is replaced (its version still guards the write).
  return parsed.success
    ? { record: parsed.data, version: entry.version }
    : { version: entry.version }
}

/** The current record, if any (hashes only). */
export async function bootstrapAdminRecord(kv: KvStore): Promise<BootstrapAdminRecord | undefined> {
  return (await readRecord(kv)).record
}

const uniq = (list: string[], not: string) => [...new Set(list)].filter((h) => h !== not)

/** Bootstrap admin records written before this record existed (see the header). */
async function legacyAdminHashes(kv: KvStore, not: string): Promise<string[]> {
  const all = await allTokenRecords(kv)
  const legacy = all.filter(
    ({ principal: p }) => p.kind === 'admin' && p.name === BOOTSTRAP_ADMIN.name && !p.token
  )
  return uniq(
    legacy.map((r) => r.hash),
    not
  )
}

async function revokeAll(kv: KvStore, hashes: string[]): Promise<void> {
  for (const h of hashes) await revokeTokenHash(kv, h)
}

/** Clears `pending` if the record is still the one written; losing that race is harmless. */
async function clearPending(kv: KvStore, record: BootstrapAdminRecord, version: number) {
  await kv.put(ADMIN_TOKEN_NS, KEY, { ...record, pending: [] }, version).catch((e: unknown) => {
    if (!isConflict(e)) throw e
  })
}

/** The recorded token is configured again: re-register it if missing, finish pending revokes. */
async function keepCurrent(
  kv: KvStore,
  hash: string,
  record: BootstrapAdminRecord,
  version: number
): Promise<void> {
  if (!(await principalOfHash(kv, hash))) await registerTokenHash(kv, hash, BOOTSTRAP_ADMIN)
  if (record.pending.length === 0) return
  await revokeAll(kv, record.pending)
  await clearPending(kv, record, version)
}

/** After recording `next`: register it, check it is still current, revoke what it replaced. */
async function completeTakeOver(
  kv: KvStore,
  next: BootstrapAdminRecord,
  written: number
): Promise<boolean> {
  await registerTokenHash(kv, next.hash, BOOTSTRAP_ADMIN)
  const after = await readRecord(kv)
  if (after.record?.hash !== next.hash) {
    await revokeTokenHash(kv, next.hash)
    return false
  }
  await revokeAll(kv, next.pending)
  if (next.pending.length > 0) await clearPending(kv, next, written)
  return true
}

/** Makes `token` the bootstrap admin token, revoking the previous one (see the header). */
export async function ensureBootstrapAdmin(
  kv: KvStore,
  token: string,
  now: Date = new Date()
): Promise<AdminOutcome> {
  const hash = await hashToken(token)
  for (let attempt = 0; attempt < PUT_ATTEMPTS; attempt++) {
    const { record, version } = await readRecord(kv)
    if (record?.retired.includes(hash)) return 'retired'
    if (record && version !== undefined && record.hash === hash) {
      await keepCurrent(kv, hash, record, version)
      return 'current'
    }
    const older = record ? [record.hash, ...record.pending] : await legacyAdminHashes(kv, hash)
    const next: BootstrapAdminRecord = {
      hash,
      since: timestamp(now),
      retired: uniq([...older, ...(record?.retired ?? [])], hash).slice(0, MAX_RETIRED),
      pending: uniq(older, hash),
    }
    let written: number
    try {
      written = await kv.put(ADMIN_TOKEN_NS, KEY, next, version ?? null)
    } catch (e) {
      if (isConflict(e)) continue
      throw e
    }
    if (!(await completeTakeOver(kv, next, written))) return 'retired'
    return record ? 'rotated' : 'registered'
  }
  throw internalError('could not record the bootstrap admin token: too many concurrent writers')
}
