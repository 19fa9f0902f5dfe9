/**
 * Edge credentials: one bearer token per mailbox, issued by the bootstrap and rotated by issuing
 * again. The key-value store keeps, per mailbox (ns `edge-credentials`, key the mailbox name), the
 * hash of the current token and the hashes still to revoke; the token itself is stored only as its
 * hash in `tokens` (lib/auth/tokens.ts), as an edge principal (edge-scope.ts).
 *
 * Issuing: (1) a versioned conditional put makes the new hash current and moves the old ones to
 * `revoke` (on Conflict, re-read and retry: a concurrent issuer won the slot, and its hash is
 * revoked like any other); (2) the new token is registered; (3) re-read: if another issuer took
 * the slot meanwhile, this token is revoked again and Conflict tells the caller to retry (its
 * token would be dead anyway); (4) the old hashes are revoked (a failure throws; they stay listed,
 * so the next issue revokes them); (5) the list is cleared with a conditional put (losing that race
 * is harmless). So concurrent issuers end with exactly one valid token, the last one recorded, and
 * a crash at any point leaves no unrecorded valid token behind except in one window: an issuer
 * that stops between (2) and (3) while another replaced it before (2).
 *
 * `rotate: false` issues only a first credential: when the mailbox already has one, (1) refuses
 * with 409 Conflict (credentialExists) before anything is written, and the current token keeps
 * working. The check is part of the conditional put, so of two first issues racing, one wins
 * and the other is refused.
 */
import { z } from 'zod'
import { generateToken, hashToken, registerToken, revokeTokenHash } from '../auth/tokens.ts'
import { ApiError, conflict, internalError, isApiError } from '../errors.ts'
import { timestamp } from '../kube/time.ts'
import type { KvStore } from '../store/types.ts'
import { edgePrincipal } from './edge-scope.ts'

export const EDGE_CREDENTIALS_NS = 'edge-credentials'

const RecordSchema = z.object({
  /** SHA-256 (hex) of the current token. */
  hash: z.string().min(1),
  /** When it was issued (RFC 3339). */
  issuedAt: z.string(),
  /** Hashes of earlier tokens whose revocation is not confirmed yet. */
  revoke: z.array(z.string()).default([]),
})
export type EdgeCredentialRecord = z.infer<typeof RecordSchema>

export type IssuedCredential = { mailbox: string; token: string; issuedAt: string }

const PUT_ATTEMPTS = 8

/** The request field that allows replacing an existing credential (manifests-bootstrap.ts). */
export const ROTATE_FIELD = 'rotate'

export type IssueOptions = {
  /** Replace a credential the mailbox already has, revoking it (default true). */
  rotate?: boolean
  /** The mailbox's SyncTarget, named in a refusal. */
  syncTarget?: string
}

/**
 * 409 Conflict: the mailbox already has a credential and replacing it was not asked for. The
 * Status names the `rotate` field in its causes, so clients can tell it from other conflicts.
 */
export function credentialExists(mailbox: string, issuedAt: string, syncTarget?: string): ApiError {
  const who = syncTarget ? `SyncTarget "${syncTarget}"` : `mailbox ${mailbox}`
  const why = `${who} already has an edge credential (issued ${issuedAt}); issuing another revokes it and cuts off the agent that uses it until the new manifests are applied there: ask with "${ROTATE_FIELD}": true to replace it`
  const base = conflict('edgecredentials', { name: mailbox }, why)
  return new ApiError(base.code, base.reason, base.message, {
    details: {
      name: mailbox,
      kind: 'EdgeCredential',
      causes: [{ reason: 'FieldValueRequired', field: ROTATE_FIELD, message: why }],
    },
  })
}

async function readRecord(
  kv: KvStore,
  mailbox: string
): Promise<{ value: EdgeCredentialRecord; version: number } | undefined> {
  const entry = await kv.get(EDGE_CREDENTIALS_NS, mailbox)
  if (!entry) return undefined
  const parsed = RecordSchema.safeParse(entry.value)
  // An unreadable record is replaced; nothing in it can be revoked by hash.
  return parsed.success ? { value: parsed.data, version: entry.version } : undefined
}

const isConflict = (e: unknown) =>
  isApiError(e) && (e.reason === 'Conflict' || e.reason === 'AlreadyExists')

/**
 * Makes `hash` current, keeping every older hash in `revoke`; returns the record and its version.
 * Without `rotate`, a current credential is a refusal (credentialExists) and nothing is written.
 */
async function claim(
  kv: KvStore,
  mailbox: string,
  mine: { hash: string; issuedAt: string },
  opts: IssueOptions
): Promise<{ record: EdgeCredentialRecord; version: number }> {
  for (let attempt = 0; attempt < PUT_ATTEMPTS; attempt++) {
    const entry = await kv.get(EDGE_CREDENTIALS_NS, mailbox)
    const current = entry ? RecordSchema.safeParse(entry.value) : undefined
    if (opts.rotate === false && current?.success)
      throw credentialExists(mailbox, current.data.issuedAt, opts.syncTarget)
    const older = current?.success ? [current.data.hash, ...current.data.revoke] : []
    const { hash, issuedAt } = mine
    const record = { hash, issuedAt, revoke: [...new Set(older)].filter((h) => h !== hash) }
    try {
      const version = await kv.put(EDGE_CREDENTIALS_NS, mailbox, record, entry?.version ?? null)
      return { record, version }
    } catch (e) {
      if (!isConflict(e)) throw e
    }
  }
  throw internalError(`could not record the credential of mailbox ${mailbox}: too many conflicts`)
}

/**
 * Issues a new token for `mailbox` and revokes every earlier one (see the header). Conflict (409)
 * when a concurrent issue for the same mailbox won (retrying issues again), or, with `rotate:
 * false`, when the mailbox already has a credential (credentialExists).
 */
export async function issueEdgeCredential(
  kv: KvStore,
  mailbox: string,
  now: Date = new Date(),
  opts: IssueOptions = {}
): Promise<IssuedCredential> {
  const token = generateToken()
  const hash = await hashToken(token)
  const issuedAt = timestamp(now)
  const { record, version } = await claim(kv, mailbox, { hash, issuedAt }, opts)
  await registerToken(kv, token, edgePrincipal(mailbox))
  const after = await readRecord(kv, mailbox)
  if (after?.value.hash !== hash) {
    await revokeTokenHash(kv, hash)
    throw conflict('edgecredentials', { name: mailbox }, 'another issue replaced it; try again')
  }
  for (const old of record.revoke) await revokeTokenHash(kv, old)
  if (record.revoke.length > 0) {
    await kv
      .put(EDGE_CREDENTIALS_NS, mailbox, { ...record, revoke: [] }, version)
      .catch((e: unknown) => {
        if (!isConflict(e)) throw e
      })
  }
  return { mailbox, token, issuedAt }
}

/** The current credential record of `mailbox`, if any (no token: only its hash is kept). */
export async function edgeCredentialRecord(
  kv: KvStore,
  mailbox: string
): Promise<EdgeCredentialRecord | undefined> {
  return (await readRecord(kv, mailbox))?.value
}
