/**
 * The budget of the Worker's invocations, from its configuration (lib/env.ts):
 * `SUBREQUEST_BUDGET` (default 1,000) and `BUDGET_MODE` (`degrade` in production, `strict` in the
 * local stack's wrangler.toml vars), logging overruns to the Worker's logger.
 */
import type { Config } from '../env.ts'
import type { Logger } from '../log.ts'
import type { BudgetConfig } from './invocation.ts'

export function budgetFromConfig(
  cfg: Pick<Config, 'SUBREQUEST_BUDGET' | 'BUDGET_MODE'>,
  log: Logger
): BudgetConfig {
  return { subrequests: cfg.SUBREQUEST_BUDGET, mode: cfg.BUDGET_MODE, log }
}
