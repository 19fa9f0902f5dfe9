/**
 * The subrequests an object write reserves before it starts (lib/budget/reservation.ts), so that
 * once its head is written its change-log entry always has room in the invocation's budget: the
 * most one write sends when nothing fails, plus the SDK's own attempts of the log put (each
 * attempt is a subrequest). Counted from object-writes.ts:
 * - create / update: the counter move (1), the head put (1), the read after a refused condition
 *   (1), the log put (SDK_ATTEMPTS), and for a big body one put per chunk plus one request to drop
 *   them after a refused condition.
 * - delete: the counter move (1), the conditional delete (1), the read after a refused condition
 *   (1), the log put (SDK_ATTEMPTS), and for a big body the blob's delete mark (1) and the read of
 *   its body for the answer (2, a 1 MiB body is at most two Query pages).
 * A late entry's announcement again (late-entries.ts) is a write of its own and reserves its own.
 */
import { CHUNK_BYTES, INLINE_LIMIT } from './body-codec.ts'

/** The SDK's attempts at one command (dynamo-client.ts `maxAttempts`, the SDK's default 3). */
export const SDK_ATTEMPTS = 3

export const OBJECT_WRITE_COST = 3 + SDK_ATTEMPTS

export const OBJECT_DELETE_COST = 3 + SDK_ATTEMPTS + 3

/** What a body of `bytes` encoded adds to a write: nothing inline, else its chunks and their drop. */
export function bodyCost(bytes: number): number {
  return bytes <= INLINE_LIMIT ? 0 : Math.ceil(bytes / CHUNK_BYTES) + 1
}

/** The subrequests a late deletion's announcement again needs: counter, delete mark, log put. */
export const DELETE_ANNOUNCE_COST = 2 + SDK_ATTEMPTS
