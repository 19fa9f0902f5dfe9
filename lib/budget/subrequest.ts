/**
 * The gate every outgoing request of an invocation goes through: `subrequest(op, send)` counts
 * one subrequest (refused with BudgetExceeded past the budget in strict mode), then waits for one
 * of the invocation's connection slots, so no more than the connection limit are in flight, and
 * holds it until `send` settles (for a fetch, until its body is read: pass a `send` that reads
 * it). The DynamoDB client calls it once per request attempt (lib/store/dynamo-client.ts);
 * `budgetedFetch` is the same for a plain fetch. Outside an invocation it only sends.
 */
import { chargeSubrequest, currentFrame } from './frames.ts'

export async function subrequest<T>(op: string, send: () => Promise<T>): Promise<T> {
  const frame = currentFrame()
  if (!frame) return send()
  chargeSubrequest(frame, op)
  const inv = frame.invocation
  const release = await inv.slots.acquire()
  inv.inFlight++
  inv.maxInFlight = Math.max(inv.maxInFlight, inv.inFlight)
  try {
    return await send()
  } finally {
    inv.inFlight--
    release()
  }
}

const NULL_BODY = new Set([101, 204, 205, 304])

/** `fetch` counted and gated as a subrequest; the whole body is read before the slot is freed. */
export async function budgetedFetch(input: RequestInfo | URL, init?: RequestInit) {
  return subrequest('fetch', async () => {
    const res = await fetch(input, init)
    const body = NULL_BODY.has(res.status) ? null : await res.arrayBuffer()
    const { status, statusText, headers } = res
    return new Response(body, { status, statusText, headers })
  })
}
