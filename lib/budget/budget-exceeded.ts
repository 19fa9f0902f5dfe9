/**
 * The error a subrequest past its invocation's budget gets in strict mode (tests, the local
 * stack): a kube Status 429 TooManyRequests, so a request that ran over fails visibly instead of
 * passing locally and failing on the platform. In production (degrade mode) nothing is thrown
 * here: the work splits itself before the budget, and an overrun is logged.
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

export function isBudgetExceeded(e: unknown): e is BudgetExceeded {
  return e instanceof BudgetExceeded
}
