/**
 * Response helpers: JSON bodies with kube's content type, `Warning` headers for validation
 * warnings (warning-header.ts: quoted and byte-safe, so no warning text can make a 500), list
 * envelopes, and the rendering of any error as a kube Status (a store that could not answer is
 * a 503 with a retry hint; a Status with `details.retryAfterSeconds` carries `Retry-After`; other internal errors are logged with their stack and answered as a
 * 500 Status without it).
 */
import { type ApiError, internalError, isApiError } from '../../lib/errors.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import type { Logger } from '../../lib/log.ts'
import type { ListResult } from '../../lib/store/types.ts'
import { isStoreUnavailable, storeUnavailable } from '../../lib/store/unavailable.ts'
import { warningHeaders } from './warning-header.ts'

export function json(body: unknown, status = 200, warnings: string[] = []): Response {
  const headers = new Headers({ 'Content-Type': 'application/json' })
  for (const h of warningHeaders(warnings)) headers.append('Warning', h)
  return new Response(JSON.stringify(body), { status, headers })
}

export function listBody(apiVersion: string, listKind: string, res: ListResult): unknown {
  const metadata: Record<string, unknown> = { resourceVersion: res.resourceVersion }
  if (res.continue) metadata.continue = res.continue
  if (res.remainingItemCount !== undefined) metadata.remainingItemCount = res.remainingItemCount
  return { apiVersion, kind: listKind, metadata, items: res.items satisfies KubeObject[] }
}

export function errorResponse(e: unknown, log: Logger, where: string): Response {
  let err: ApiError
  if (isApiError(e)) err = e
  else if (isStoreUnavailable(e)) {
    log.warn('store unavailable', { where, error: e })
    err = storeUnavailable()
  } else {
    log.error('internal error', {
      where,
      error: e,
      stack: e instanceof Error ? e.stack : undefined,
    })
    err = internalError('an internal error occurred; see the server log')
  }
  const res = json(err.toStatus(), err.code)
  // As kube's response writers: a Status asking to wait says so in the header clients read.
  const wait = err.details?.retryAfterSeconds
  if (wait !== undefined && wait > 0) res.headers.set('Retry-After', String(Math.ceil(wait)))
  return res
}
