/**
 * Invocations that went past their budget in this process, for tests: a vitest setup hook
 * (test/setup/budget.ts) fails any test during which one did. Bounded, so a long-lived process
 * that keeps overrunning (logged each time) does not grow without end.
 */

export type Violation = {
  kind: string
  budget: number
  mode: 'strict' | 'degrade'
  /** The request that went past the budget, and whether a write in progress sent it. */
  op: string
  inWrite: boolean
  /** Subrequests by operation when the budget ran out. */
  ops: Record<string, number>
}

const KEPT = 100
let seen: Violation[] = []

export function recordViolation(v: Violation): void {
  seen.push(v)
  if (seen.length > KEPT) seen = seen.slice(-KEPT)
}

/** The violations recorded since the last call, which forgets them. */
export function takeViolations(): Violation[] {
  const out = seen
  seen = []
  return out
}
