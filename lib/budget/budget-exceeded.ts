/**
 * The error a subrequest past its invocation's budget gets in strict mode (tests, the local
 * stack): a kube Status 429 TooManyRequests, so a request that ran over fails visibly instead of
 * passing locally and failing on the platform. In production (degrade mode) nothing is thrown
 * here: the work splits itself before the budget, and an overrun is logged.
 * BudgetRefused is the same answer for a write refused before it started (reservation.ts).
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

export function isBudgetExceeded(e: unknown): e is BudgetExceeded {
  return e instanceof BudgetExceeded
}
