/**
 * Periodic maintenance run by the cron: trims the watch change log to its retention window,
 * finishes the deletion of anything still terminating (namespaces, workspaces, CRDs whose content
 * removal was interrupted), and runs one resync page of every reconcile step, so an event the
 * relay lost is healed within a few periods. Each part logs what it did; a failure in one does not stop the other.
 */
import type { HubDeps } from '../lib/hub/deps.ts'
import { resumeTerminations } from '../lib/hub/resume-terminations.ts'
import { resyncPage } from '../lib/reconcile/run.ts'
import type { DynamoStore } from '../lib/store/dynamo-store.ts'
import { buildControllers } from './controllers.ts'

export async function runMaintenance(
  deps: HubDeps,
  store: DynamoStore,
  opts: { cron: string; baseUrl: string }
): Promise<void> {
  const log = deps.log.child({ step: 'maintenance', cron: opts.cron })
  const started = Date.now()
  try {
    const swept = await store.sweepChangeLog({ now: Date.now() })
    log.info('change log swept', { swept })
  } catch (e) {
    log.error('change log sweep failed', { error: e })
  }
  try {
    const resumed = await resumeTerminations(deps, opts.baseUrl)
    log.info('terminations resumed', { resumed })
  } catch (e) {
    log.error('resuming terminations failed', { error: e })
  }
  for (const controller of buildControllers(deps, opts.baseUrl)) {
    try {
      const page = await resyncPage(controller, deps.kv, deps.log)
      log.info('resync page', { controller: controller.name, ...page })
    } catch (e) {
      log.error('resync failed', { controller: controller.name, error: e })
    }
  }
  log.info('maintenance done', { durationMs: Date.now() - started })
}
