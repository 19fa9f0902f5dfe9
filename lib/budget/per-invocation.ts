/**
 * State kept for the running invocation (frames.ts): made on its first use within an invocation
 * and dropped with it, never seen by another one (a Worker request must not wait on I/O another
 * request started). Outside any invocation there is none.
 */
import { currentInvocation } from './frames.ts'
import type { Invocation } from './invocation.ts'

export function perInvocation<T>(make: () => T): () => T | undefined {
  const kept = new WeakMap<Invocation, T>()
  return () => {
    const inv = currentInvocation()
    if (!inv) return undefined
    let state = kept.get(inv)
    if (state === undefined) {
      state = make()
      kept.set(inv, state)
    }
    return state
  }
}
