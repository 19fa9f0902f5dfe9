/**
 * kube's DeleteCollection within the invocation's subrequest budget and a bounded time: the listed
 * objects are deleted a few at a time (COLLECTION_WORKERS in flight, as kube-apiserver's
 * `--delete-collection-workers`, within the invocation's connection limit) while one more fits
 * under the invocation's ceiling (lib/budget/pacer.ts, each delete measured; OBJECT_COST_ESTIMATE
 * until the first one is), so the request is never cut in the middle of an object's delete. When
 * the rest does not fit — by the pacer, because the store refused a write for want of room before
 * sending it (lib/budget/reservation.ts), or because the request has run COLLECTION_WALL_MS (well
 * inside kube's one-minute request timeout, so a client hears back whatever the store's speed) —
 * no further delete starts, those in flight finish, and the answer is 429 TooManyRequests with
 * `retryAfterSeconds`, as kube answers a request it cannot serve now: every object deleted so far
 * is deleted and logged, and the client's retry lists again and deletes the rest. An object gone
 * since the list is skipped (kube ignores NotFound there).
 */
import { isBudgetExceeded } from '../budget/budget-exceeded.ts'
import { OBJECT_COST_ESTIMATE } from '../budget/limits.ts'
import { createPacer } from '../budget/pacer.ts'
import { isApiError, tooManyRequests } from '../errors.ts'
import type { KubeObject } from '../kube/types.ts'

/** What a collection delete does to one object: its deleted state, or undefined when gone. */
export type DeleteOne = (obj: KubeObject) => Promise<KubeObject | undefined>

/** Seconds a client waits before sending the rest of a collection delete again. */
export const COLLECTION_RETRY_SECONDS = 1

/** Object deletes in flight at once (each sends its requests one after another). */
export const COLLECTION_WORKERS = 4

/** Milliseconds after which a collection delete starts no further object's delete. */
export const COLLECTION_WALL_MS = 30_000

export type DeleteListedOptions = {
  /** The clock (injected); defaults to Date.now. */
  now?: () => number
  workers?: number
  wallMs?: number
}

function tooMuch(done: number, total: number, why: string) {
  return tooManyRequests(
    `deleted ${done} of ${total} objects; the rest did not fit in this request's ${why}, send the delete again`,
    COLLECTION_RETRY_SECONDS
  )
}

/** Deletes `listed` while each fits; the deleted objects in list order, or 429 when some are left. */
export async function deleteListed(
  listed: readonly KubeObject[],
  deleteOne: DeleteOne,
  o: DeleteListedOptions = {}
): Promise<KubeObject[]> {
  const now = o.now ?? Date.now
  const until = now() + (o.wallMs ?? COLLECTION_WALL_MS)
  const pacer = createPacer(OBJECT_COST_ESTIMATE)
  const gone: (KubeObject | undefined)[] = []
  let next = 0
  let running = 0
  let done = 0
  let stop: 'subrequest budget' | 'time' | undefined
  let failure: { error: unknown } | undefined

  const startable = (): boolean => {
    if (stop || failure || next >= listed.length) return false
    if (next > 0 && now() >= until) stop = 'time'
    else if (!pacer.mayStart(running, next)) stop = 'subrequest budget'
    return !stop
  }
  const worker = async (): Promise<void> => {
    while (startable()) {
      const i = next++
      running++
      try {
        gone[i] = await pacer.run(() => deleteOne(listed[i] as KubeObject))
        done++
      } catch (e) {
        if (isBudgetExceeded(e)) stop = 'subrequest budget'
        else if (isApiError(e) && e.code === 404) done++
        else failure ??= { error: e }
      } finally {
        running--
      }
    }
  }
  const workers = Math.max(1, Math.min(o.workers ?? COLLECTION_WORKERS, listed.length))
  await Promise.all(Array.from({ length: workers }, worker))
  if (failure) throw failure.error
  if (stop) throw tooMuch(done, listed.length, stop)
  return gone.filter((x): x is KubeObject => x !== undefined)
}
