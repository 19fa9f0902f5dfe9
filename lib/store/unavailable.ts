/**
 * Whether an error from the store's client means DynamoDB could not be reached or could not answer
 * (a dropped connection, a timeout, throttling, a 5xx) rather than a bug: such a request is worth
 * retrying, so the API answers it as kube answers an unavailable etcd — 503 ServiceUnavailable with
 * a retry hint — instead of an internal error. Errors the table refused as sent (4xx, but for
 * throttling) are not: `refusedAsSent` tells the store's writes which sends are worth repeating,
 * and `sdkAttempts` which ones the SDK's retry loop (throttling, 5xx, network errors) already sent
 * again.
 */
import { ApiError } from '../errors.ts'

const THROTTLED = /Throttl|ProvisionedThroughputExceeded|RequestLimitExceeded|LimitExceeded/

const statusOf = (e: unknown) =>
  (e as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode

/**
 * An error that says the request was refused as sent (validation, a missing table, ...): it cannot
 * have landed and sending it again cannot help. Anything else may or may not have landed.
 */
export function refusedAsSent(e: unknown): boolean {
  const status = statusOf(e)
  if (e instanceof Error && THROTTLED.test(e.name)) return false
  return status !== undefined && status >= 400 && status < 500
}

/**
 * How many times the SDK's retry loop sent the command an error (or a result) came from; undefined
 * when it did not come through that loop (a failure raised around the SDK, before or after it).
 */
export function sdkAttempts(e: unknown): number | undefined {
  const attempts = (e as { $metadata?: { attempts?: unknown } } | undefined)?.$metadata?.attempts
  return typeof attempts === 'number' ? attempts : undefined
}

const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN'])

export function isStoreUnavailable(e: unknown): boolean {
  if (!(e instanceof Error) || e instanceof ApiError) return false
  const status = statusOf(e)
  if (status !== undefined && status >= 500) return true
  if (THROTTLED.test(e.name)) return true
  const code = (e as { code?: string }).code
  if (code && NETWORK_CODES.has(code)) return true
  return /TimeoutError|socket hang up/i.test(`${e.name} ${e.message}`)
}

/** The Status for a store that could not answer. */
export function storeUnavailable(): ApiError {
  return new ApiError(
    503,
    'ServiceUnavailable',
    'the object store is unavailable or too busy to answer; try again',
    { details: { retryAfterSeconds: 1 } }
  )
}
