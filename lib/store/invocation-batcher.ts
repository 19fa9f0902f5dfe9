/**
 * Requests of one invocation that can travel together do: a batch of reconcile runs in one
 * invocation (the mailbox step's 16 at a time) each take a resourceVersion and put a change-log
 * item per write, one request each. A batcher collects what its callers ask while a request of its
 * kind is in flight, and sends all of it as one request when that one returns (a counter move of
 * their sum, one BatchWriteItem): the first caller goes at once, so a lone writer (an API request)
 * waits for nothing, and under load the requests of a kind come down to one per round trip.
 * Only within one invocation (lib/budget/frames.ts): workerd does not let a request wait on I/O
 * that another request started, and outside any invocation every call is sent on its own. A
 * failed send fails every caller in it, as each one's own request would have failed. The send
 * is measured apart from the callers' scopes, and each caller's scopes are charged its share, so a
 * pacer sees a unit's average cost (as the translate step's group commit does). The send draws
 * on the reservations of the callers in it (lib/budget/reservation.ts), as their own would have.
 */
import {
  chargeScopes,
  currentReservations,
  measuredApart,
  measuringScopes,
  type Scope,
  withReservations,
} from '../budget/frames.ts'
import type { Reservation } from '../budget/invocation.ts'
import { perInvocation } from '../budget/per-invocation.ts'

type Waiting<I, O> = {
  input: I
  scopes: readonly Scope[]
  reservations: readonly Reservation[]
  resolve: (o: O) => void
  reject: (e: unknown) => void
}

type State<I, O> = { queue: Waiting<I, O>[]; busy: boolean }

/**
 * A batcher: `send` answers every input of a group, in order. The returned function submits one
 * input and resolves with its answer.
 */
export function createBatcher<I, O>(send: (inputs: I[]) => Promise<O[]>): (input: I) => Promise<O> {
  const stateOf = perInvocation((): State<I, O> => ({ queue: [], busy: false }))

  const flush = async (state: State<I, O>): Promise<void> => {
    state.busy = true
    while (state.queue.length > 0) {
      const group = state.queue
      state.queue = []
      try {
        const { value, used } = await withReservations(
          group.flatMap((w) => w.reservations),
          () => measuredApart(() => send(group.map((w) => w.input)))
        )
        for (const [i, w] of group.entries()) {
          chargeScopes(w.scopes, used / group.length)
          w.resolve(value[i] as O)
        }
      } catch (e) {
        for (const w of group) w.reject(e)
      }
    }
    state.busy = false
  }

  return (input) => {
    const s = stateOf()
    if (!s) return send([input]).then((out) => out[0] as O)
    const answer = new Promise<O>((resolve, reject) => {
      s.queue.push({
        input,
        scopes: measuringScopes(),
        reservations: currentReservations(),
        resolve,
        reject,
      })
    })
    if (!s.busy) void flush(s)
    return answer
  }
}
