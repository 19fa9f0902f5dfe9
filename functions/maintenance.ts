/**
 * Periodic maintenance run by the cron, as one Worker invocation within its subrequest budget
 * (docs/ARCHITECTURE.md, "Workers limits"): each part runs until the invocation has used its
 * cumulative share of the budget (lib/budget/limits.ts SHARES.cron) and continues next tick from
 * a cursor — a step of the migration to the current stored format while one is due
 * (lib/store/format-migrations.ts; its cursor is in the format record), a step of the change-log sweep and of the projection sweep
 * (maintenance-sweeps.ts), a step of the walk that finishes anything still terminating
 * (namespaces, workspaces, CRDs whose content removal was interrupted:
 * maintenance-terminations.ts), a walk of the SyncTargets that writes their Ready condition where
 * the staleness rule says something new (an edge turned stale: maintenance-liveness.ts), then one
 * resync page of every reconcile step, each step getting
 * an equal part of what is left, so an event the relay lost is healed within a few periods.
 * Outside an invocation (tests, tools) nothing bounds the parts. Each part logs what it did; a
 * failure in one does not stop the others.
 */
import { currentInvocation, hasRoom, withShare } from '../lib/budget/frames.ts'
import { SHARES } from '../lib/budget/limits.ts'
import type { HubDeps } from '../lib/hub/deps.ts'
import { resyncPage } from '../lib/reconcile/run.ts'
import type { DynamoStore } from '../lib/store/dynamo-store.ts'
import { buildControllers } from './controllers.ts'
import { sweepLivenessTick } from './maintenance-liveness.ts'
import { sweepBodiesTick, sweepChangeLogTick } from './maintenance-sweeps.ts'
import { resumeTerminationsTick } from './maintenance-terminations.ts'

export async function runMaintenance(
  deps: HubDeps,
  store: DynamoStore,
  opts: { cron: string; baseUrl: string }
): Promise<void> {
  const log = deps.log.child({ step: 'maintenance', cron: opts.cron })
  const started = Date.now()
  const share = SHARES.cron
  try {
    const step = await withShare(share.format, () => store.migrate(hasRoom))
    if (!step.done || step.from !== step.format) log.info('stored format migration', { ...step })
  } catch (e) {
    log.error('stored format migration failed', { error: e })
  }
  try {
    const swept = await withShare(share.changeLog, () =>
      sweepChangeLogTick(store, deps.kv, Date.now())
    )
    log.info('change log swept', { swept, ...usedSoFar() })
  } catch (e) {
    log.error('change log sweep failed', { error: e })
  }
  try {
    const swept = await withShare(share.bodies, () => sweepBodiesTick(store, deps.kv, Date.now()))
    log.info('projections swept', { swept, ...usedSoFar() })
  } catch (e) {
    log.error('projection sweep failed', { error: e })
  }
  try {
    const resumed = await withShare(share.terminations, () =>
      resumeTerminationsTick(deps, opts.baseUrl)
    )
    log.info('terminations resumed', { resumed, ...usedSoFar() })
  } catch (e) {
    log.error('resuming terminations failed', { error: e })
  }
  try {
    const swept = await withShare(share.liveness, () => sweepLivenessTick(deps))
    log.info('edge liveness swept', { ...swept, ...usedSoFar() })
  } catch (e) {
    log.error('edge liveness sweep failed', { error: e })
  }
  const controllers = buildControllers(deps, opts.baseUrl)
  for (const [i, controller] of controllers.entries()) {
    try {
      const observe = deps.ops?.metrics.reconcileObserver
      const page = await withShare(resyncShare(share.resync, controllers.length - i), () =>
        resyncPage(controller, deps.kv, { log: deps.log.child({ via: 'resync' }), observe })
      )
      log.info('resync page', { controller: controller.name, ...page, ...usedSoFar() })
    } catch (e) {
      log.error('resync failed', { controller: controller.name, error: e })
    }
  }
  log.info('maintenance done', { durationMs: Date.now() - started, ...usedSoFar() })
}

/** The invocation's subrequests so far, for the log lines (nothing outside an invocation). */
function usedSoFar(): { subrequests?: number; budget?: number } {
  const inv = currentInvocation()
  return inv ? { subrequests: inv.subrequests, budget: inv.budget } : {}
}

/** The fraction of the budget up to which the next of `left` resync steps may go. */
function resyncShare(upToFraction: number, left: number): number {
  const inv = currentInvocation()
  if (!inv) return upToFraction
  const used = inv.subrequests / inv.budget
  return used + Math.max(0, upToFraction - used) / left
}
