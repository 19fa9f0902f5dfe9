/**
 * The one error of a call to a remote HTTP API (an edge cluster's kube API, the hub, the center's
 * edge API). `kind` tells a failure with no answer at all (`transport`: refused, reset, TLS
 * refused, timed out, aborted; `code` 0) from an answer the server gave (`answer`: a non-2xx
 * status, `code` is it, with the kube Status `reason`, `message` and `details.causes` when the body
 * was a Status)
 * and from a 2xx answer that could not be read (`unreadable`). Messages read
 * `<what>: HTTP <code>: <detail>`, the detail being the Status message, else the start of the
 * body, else the status text.
 */
import { z } from 'zod'

export type RemoteErrorKind = 'transport' | 'answer' | 'unreadable'

/** One of a Status's `details.causes`: which field, and why. */
export type RemoteCause = {
  reason?: string | undefined
  field?: string | undefined
  message?: string | undefined
}

export type RemoteErrorInit = {
  reason?: string | undefined
  causes?: RemoteCause[] | undefined
  detail?: string
  kind?: RemoteErrorKind
  cause?: unknown
}

export class RemoteError extends Error {
  override name = 'RemoteError'
  /** The HTTP status; 0 when no answer came. */
  readonly code: number
  /** The kube Status `reason` of the answer (NotFound, Conflict, Expired...), when it had one. */
  readonly reason: string | undefined
  /** The Status message, else the start of the body, else the status text ('' for none). */
  readonly detail: string
  readonly kind: RemoteErrorKind
  /** The Status's `details.causes` ([] when none). */
  readonly causes: RemoteCause[]
  constructor(code: number, message: string, init: RemoteErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause })
    this.code = code
    this.reason = init.reason
    this.causes = init.causes ?? []
    this.detail = init.detail ?? ''
    this.kind = init.kind ?? (code === 0 ? 'transport' : 'answer')
  }
}

/** True for a RemoteError (with that HTTP code, when given). */
export const isRemoteError = (e: unknown, code?: number): e is RemoteError =>
  e instanceof RemoteError && (code === undefined || e.code === code)

const CauseSchema = z.looseObject({
  reason: z.string().optional(),
  field: z.string().optional(),
  message: z.string().optional(),
})
const StatusSchema = z.looseObject({
  message: z.string().optional(),
  reason: z.string().optional(),
  details: z
    .looseObject({ causes: z.array(CauseSchema).optional().catch(undefined) })
    .optional()
    .catch(undefined),
})

const DETAIL_CHARS = 300

/** The error for a non-2xx answer whose body (already read) is `text`. */
export function answerError(
  status: number,
  statusText: string,
  text: string,
  what: string
): RemoteError {
  let parsed: z.infer<typeof StatusSchema> = {}
  try {
    parsed = StatusSchema.parse(JSON.parse(text))
  } catch {
    // not a Status body
  }
  const detail = parsed.message ?? (text.slice(0, DETAIL_CHARS) || statusText)
  const message = `${what}: HTTP ${status}${detail ? `: ${detail}` : ''}`
  const causes = parsed.details?.causes?.map(({ reason, field, message }) => ({
    reason,
    field,
    message,
  }))
  return new RemoteError(status, message, { reason: parsed.reason, detail, causes })
}

/** The error for a request that got no answer (or lost it midway); `e` is what the transport threw. */
export function transportError(e: unknown, what: string): RemoteError {
  if (e instanceof RemoteError) return e
  const msg = e instanceof Error ? e.message : String(e)
  const cause = (e as { cause?: unknown } | undefined)?.cause
  const why = cause instanceof Error ? cause.message : undefined
  const detail = why && why !== msg ? `${msg} (${why})` : msg
  return new RemoteError(0, `${what}: ${detail}`, { detail, cause: e })
}

/** The error for a 2xx answer that is not what was asked for. */
export function unreadableError(status: number, what: string, why: unknown): RemoteError {
  const detail = (why instanceof Error ? why.message : String(why)).slice(0, DETAIL_CHARS)
  return new RemoteError(status, `${what}: unreadable answer: ${detail}`, {
    detail,
    kind: 'unreadable',
    cause: why,
  })
}
