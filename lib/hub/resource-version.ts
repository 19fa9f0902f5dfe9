/**
 * resourceVersion as a read or watch asks for it, as kube-apiserver reads it: "" and "0" mean
 * "any" (0); anything else must be a decimal unsigned 64-bit integer (Go's strconv.ParseUint), or
 * the request is 400 with kube's wording (k8s.io/apiserver storage.APIObjectVersioner and
 * storage.ValidateListOptions). A version newer than the store has issued is waited for briefly
 * (kube's watch cache blocks up to 3 s, watch_cache.go `blockTimeout`) and then refused as kube
 * refuses it: 504 Timeout "Too large resource version" with a ResourceVersionTooLarge cause
 * (storage.NewTooLargeResourceVersionError). That 504 is deliberate, the one 5xx the hub answers
 * on purpose: client-go's reflector recognizes it (IsTooLargeResourceVersion) and relists from
 * scratch, which is how an informer holding a version from another store (say, before the hub's
 * table was recreated) recovers instead of waiting forever.
 */
import { ApiError, badRequest } from '../errors.ts'
import type { ObjectStore } from '../store/types.ts'

const MAX_UINT64 = 2n ** 64n - 1n

/** How long a read waits for the store to reach a requested version (kube: 3 s). */
export const FRESHNESS_WAIT_MS = 3000
/** kube's resourceVersionTooHighRetrySeconds. */
const RETRY_AFTER_SECONDS = 1

/** Go's strconv.ParseUint(s, 10, 64) error text, or undefined when it parses. */
function parseUintProblem(text: string): string | undefined {
  if (!/^[0-9]+$/.test(text))
    return `strconv.ParseUint: parsing ${JSON.stringify(text)}: invalid syntax`
  if (BigInt(text) > MAX_UINT64)
    return `strconv.ParseUint: parsing ${JSON.stringify(text)}: value out of range`
  return undefined
}

/** The requested version (0n for "" and "0"); 400 BadRequest when it is not one. */
export function parseResourceVersion(rv: string | undefined): bigint {
  if (rv === undefined || rv === '' || rv === '0') return 0n
  const problem = parseUintProblem(rv)
  if (problem)
    throw badRequest(
      `invalid resource version: resourceVersion: Invalid value: ${JSON.stringify(rv)}: ${problem}`
    )
  return BigInt(rv)
}

/** kube's 504 for a version the store has not reached. */
export function tooLargeResourceVersion(requested: bigint, current: number): ApiError {
  return new ApiError(
    504,
    'Timeout',
    `Timeout: Too large resource version: ${requested}, current: ${current}`,
    {
      details: {
        causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
        retryAfterSeconds: RETRY_AFTER_SECONDS,
      },
    }
  )
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * Resolves with the store's current version once it is at least `rv`; polls for at most
 * `waitMs`, then throws the TooLarge 504. Returns at once for 0n (any version).
 */
export async function waitForResourceVersion(
  objects: Pick<ObjectStore, 'currentRv'>,
  rv: bigint,
  waitMs = FRESHNESS_WAIT_MS,
  pollMs = 100
): Promise<number> {
  const until = Date.now() + waitMs
  for (;;) {
    const current = await objects.currentRv()
    if (rv <= BigInt(current)) return current
    const left = until - Date.now()
    if (left <= 0) throw tooLargeResourceVersion(rv, current)
    await sleep(Math.min(pollMs, left))
  }
}
