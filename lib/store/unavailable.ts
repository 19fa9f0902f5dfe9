/**
 * Whether an error from the store's client means DynamoDB could not be reached or could not answer
 * (a dropped connection, a timeout, throttling, a 5xx) rather than a bug: such a request is worth
 * retrying, so the API answers it as kube answers an unavailable etcd — 503 ServiceUnavailable with
 * a retry hint — instead of an internal error. Errors the table refused as sent (4xx) are not.
 */
import { ApiError } from '../errors.ts'

const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN'])

export function isStoreUnavailable(e: unknown): boolean {
  if (!(e instanceof Error) || e instanceof ApiError) return false
  const meta = (e as { $metadata?: { httpStatusCode?: number } }).$metadata
  const status = meta?.httpStatusCode
  if (status !== undefined && status >= 500) return true
  if (/Throttl|ProvisionedThroughputExceeded|RequestLimitExceeded/.test(e.name)) return true
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
    { retryAfterSeconds: 1 }
  )
}
