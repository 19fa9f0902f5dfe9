/**
 * kube's DeleteCollection within the invocation's subrequest budget: the listed objects are deleted
 * one by one while one more fits under the invocation's ceiling (lib/budget/pacer.ts, each delete
 * measured; OBJECT_COST_ESTIMATE until the first one is), so the request is never cut in the
 * middle of an object's delete. When the rest does not fit — by the pacer, or because the store
 * refused a write for want of room before sending it (lib/budget/reservation.ts) — it stops and
 * answers 429 TooManyRequests with `retryAfterSeconds`, as kube answers a request it cannot serve
 * now: every object deleted so far is deleted and logged, and the client's retry lists again and
 * deletes the rest. An object gone since the list is skipped (kube ignores NotFound there).
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

function tooMuch(done: number, total: number) {
  return tooManyRequests(
    `deleted ${done} of ${total} objects; the rest did not fit in this request's subrequest budget, send the delete again`,
    COLLECTION_RETRY_SECONDS
  )
}

/** Deletes `listed` in order while each fits; the deleted objects, or 429 when some are left. */
export async function deleteListed(
  listed: readonly KubeObject[],
  deleteOne: DeleteOne
): Promise<KubeObject[]> {
  const pacer = createPacer(OBJECT_COST_ESTIMATE)
  const items: KubeObject[] = []
  for (const [i, obj] of listed.entries()) {
    if (!pacer.mayStart(0, i)) throw tooMuch(i, listed.length)
    let gone: KubeObject | undefined
    try {
      gone = await pacer.run(() => deleteOne(obj))
    } catch (e) {
      if (isBudgetExceeded(e)) throw tooMuch(i, listed.length)
      if (isApiError(e) && e.code === 404) continue
      throw e
    }
    if (gone) items.push(gone)
  }
  return items
}
