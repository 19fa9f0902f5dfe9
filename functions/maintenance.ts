/**
 * Periodic maintenance run by the cron: trims the watch change log to its retention window and
 * finishes the deletion of anything still terminating (namespaces, workspaces, CRDs whose content
 * removal was interrupted). Each part logs what it did; a failure in one does not stop the other.
 */
import type { HubDeps } from '../lib/hub/deps.ts'
import { resumeTerminations } from '../lib/hub/resume-terminations.ts'
import type { DynamoStore } from '../lib/store/dynamo-store.ts'

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
  log.info('maintenance done', { durationMs: Date.now() - started })
}
