/**
 * Typed API errors. Every failure the hub reports to a client is one of these, and each renders
 * itself as a Kubernetes `Status` object (kind Status, status Failure, reason, code, details) so
 * kubectl prints `Error from server (Reason): message`. Anything else that escapes a handler is an
 * internal error and is rendered as a 500 Status without a stack.
 */

export type StatusCause = { reason?: string; message: string; field?: string }

export type StatusDetails = {
  name?: string
  group?: string
  kind?: string
  causes?: StatusCause[]
  retryAfterSeconds?: number
}

export type KubeStatus = {
  kind: 'Status'
  apiVersion: 'v1'
  metadata: Record<string, never>
  status: 'Failure' | 'Success'
  message: string
  reason: string
  details?: StatusDetails
  code: number
}

/** What an ApiError may carry beyond its code, reason and message. */
export type ApiErrorMore = { details?: StatusDetails | undefined; cause?: unknown }

export class ApiError extends Error {
  readonly code: number
  readonly reason: string
  readonly details: StatusDetails | undefined

  /** `more.details` goes into the rendered Status; `more.cause` is kept for logs only. */
  constructor(code: number, reason: string, message: string, more: ApiErrorMore = {}) {
    const { details, cause } = more
    super(message, cause === undefined ? undefined : { cause })
    this.name = 'ApiError'
    this.code = code
    this.reason = reason
    this.details = details
  }

  toStatus(): KubeStatus {
    const status: KubeStatus = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      code: this.code,
    }
    if (this.details) status.details = this.details
    return status
  }
}

type Target = { group?: string; kind?: string; name?: string }

/** `<resource>.<group> "<name>"` as kube formats it in messages. */
export function describeTarget(resource: string, group: string | undefined, name?: string): string {
  const gr = group ? `${resource}.${group}` : resource
  return name === undefined ? gr : `${gr} "${name}"`
}

export const badRequest = (message: string, causes?: StatusCause[]) =>
  new ApiError(400, 'BadRequest', message, { details: causes ? { causes } : undefined })

export const unauthorized = (message = 'Unauthorized') => new ApiError(401, 'Unauthorized', message)

export const forbidden = (message: string, target?: Target) =>
  new ApiError(403, 'Forbidden', message, { details: target })

export const notFound = (resource: string, target: Target) =>
  new ApiError(
    404,
    'NotFound',
    `${describeTarget(resource, target.group, target.name)} not found`,
    { details: target }
  )

export const methodNotAllowed = (message: string) => new ApiError(405, 'MethodNotAllowed', message)

export const notAcceptable = (message: string) => new ApiError(406, 'NotAcceptable', message)

export const alreadyExists = (resource: string, target: Target) =>
  new ApiError(
    409,
    'AlreadyExists',
    `${describeTarget(resource, target.group, target.name)} already exists`,
    { details: target }
  )

export const conflict = (resource: string, target: Target, why: string) =>
  new ApiError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${describeTarget(resource, target.group, target.name)}: ${why}`,
    { details: target }
  )

/** 410 Gone with reason Expired: the requested resourceVersion is older than the change log keeps. */
export const expired = (message: string) => new ApiError(410, 'Expired', message)

export const tooLarge = (message: string) => new ApiError(413, 'RequestEntityTooLarge', message)

export const unsupportedMediaType = (message: string) =>
  new ApiError(415, 'UnsupportedMediaType', message)

/** 422 Invalid, naming each offending field in `details.causes`. */
export const invalid = (resource: string, target: Target, causes: StatusCause[]) =>
  new ApiError(
    422,
    'Invalid',
    `${describeTarget(resource, target.group, target.name)} is invalid: ${causes
      .map((c) => (c.field ? `${c.field}: ${c.message}` : c.message))
      .join(', ')}`,
    { details: { ...target, causes } }
  )

/**
 * 429 TooManyRequests, as kube answers when its API Priority and Fairness (or max-in-flight)
 * refuses a request: the client waits `retryAfterSeconds` (the Retry-After header, which the
 * Status rendering adds) and tries again.
 */
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new ApiError(429, 'TooManyRequests', message, { details: { retryAfterSeconds } })

export const internalError = (message: string, cause?: unknown) =>
  new ApiError(500, 'InternalError', message, { cause })

export const serviceUnavailable = (message: string) =>
  new ApiError(503, 'ServiceUnavailable', message)

/** 504 with reason Timeout: kube's answer when a write's outcome is unknown (it may have landed). */
export const outcomeUnknown = (message: string) => new ApiError(504, 'Timeout', message)

/**
 * The Conflict the store raises when a conditional write lost to a concurrent writer (the stored
 * resourceVersion moved between the read and the write). Callers that did not ask for a
 * precondition read again and retry (as kube's GuaranteedUpdate does); others answer it as 409.
 */
export class StaleWriteError extends ApiError {
  constructor(resource: string, target: Target, why: string) {
    const base = conflict(resource, target, why)
    super(base.code, base.reason, base.message, { details: base.details })
    this.name = 'StaleWriteError'
  }
}

export function isStaleWrite(e: unknown): e is StaleWriteError {
  return e instanceof StaleWriteError
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError
}

/** A 404 NotFound ApiError: the object or space asked for does not exist. */
export function isNotFound(e: unknown): boolean {
  return isApiError(e) && e.code === 404
}

/** A 409 Conflict ApiError (not AlreadyExists): a precondition failed against a newer write. */
export function isConflict(e: unknown): boolean {
  return isApiError(e) && e.code === 409 && e.reason === 'Conflict'
}
