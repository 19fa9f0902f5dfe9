/**
 * The error a subrequest past its invocation's budget gets in strict mode (tests, the local
 * stack): a kube Status 429 TooManyRequests, so a request that ran over fails visibly instead of
 * passing locally and failing on the platform. In production (degrade mode) nothing is thrown
 * here: the work splits itself before the budget, and an overrun is logged.
 * BudgetRefused is the same answer for a write refused before it started (reservation.ts),
 * BudgetDeferred for work that continues in a fresh invocation by design.
 */
import { ApiError } from '../errors.ts'

export class BudgetExceeded extends ApiError {
  constructor(kind: string, budget: number) {
    super(
      429,
      'TooManyRequests',
      `this ${kind} invocation needs more than its budget of ${budget} subrequests`,
      { details: { retryAfterSeconds: 1 } }
    )
    this.name = 'BudgetExceeded'
  }
}

/**
 * A write refused before it sent anything: what it and its change-log entry need does not fit in
 * what is left of the invocation's budget (reservation.ts). The same 429, so clients and callers
 * handle both alike: send again later, in a fresh invocation.
 */
export class BudgetRefused extends BudgetExceeded {
  constructor(kind: string, budget: number, need: number) {
    super(kind, budget)
    this.message = `this ${kind} invocation has no room left in its budget of ${budget} subrequests for a write that needs ${need}; nothing was written, send it again`
    this.name = 'BudgetRefused'
  }
}

/**
 * Work a step splits over invocations by design (one key's pages, each within its share of the
 * budget): this invocation did its part and stored it, nothing was cut or refused, and the rest
 * continues in a fresh invocation. Run like a refusal (lib/reconcile/run.ts answers the key as
 * deferred, and the hooks' callers send it again), but counted neither as an overrun nor as a
 * refused write.
 */
export class BudgetDeferred extends BudgetExceeded {
  constructor(kind: string, budget: number, what: string) {
    super(kind, budget)
    this.message = `this ${kind} invocation did its share of ${what}; the rest continues in a fresh invocation`
    this.name = 'BudgetDeferred'
  }
}

export function isBudgetExceeded(e: unknown): e is BudgetExceeded {
  return e instanceof BudgetExceeded
}
