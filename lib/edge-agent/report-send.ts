/**
 * The reporting end of a poll: plans the report (report.ts) from what the poll collected, posts it
 * and records what the center accepted (report-state.ts), logging what was too large, the problems
 * sent and what the center rejected. Only problems of objects the mailbox holds a copy of are
 * sent — those are the ones the center can show; a failed delete of an object that left the
 * desired state is logged (prune.ts retries it every poll). Nothing to say → no request at all.
 * A failed post changes nothing recorded: the same items go again next poll.
 */
import type { Problem } from '../edge/protocol.ts'
import type { Logger } from '../log.ts'
import type { CenterClient } from './center-client.ts'
import { refKey } from './refs.ts'
import type { RemovedItem } from './removals.ts'
import { acceptReport, planReport } from './report.ts'
import type { ReportState } from './report-state.ts'
import type { StatusItem } from './status-collector.ts'
import type { UpsyncChanges } from './upsync-collector.ts'

export type SendInput = {
  statuses: readonly StatusItem[]
  upsync: UpsyncChanges
  problems: readonly Problem[]
  /** Keys of the mailbox's copies (refs.ts refKey). */
  copies: ReadonlySet<string>
  /** Tombstones the edge no longer has (removals.ts). */
  removed?: readonly RemovedItem[]
  state: ReportState
  nowMs: number
  /** The heartbeat period (report.ts; default once a minute). */
  heartbeatMs?: number
}

export type SendResult = {
  /** The report state to keep (unchanged input when the post failed). */
  state: ReportState
  reported: boolean
  statuses: number
  /** Removal confirmations sent. */
  removed?: number
  upsyncApply: number
  upsyncDelete: number
  error?: string
}

/** The problems the center can show (on a copy it holds); the others are logged. */
export function reportableProblems(
  problems: readonly Problem[],
  copies: ReadonlySet<string>,
  log: Logger
): Problem[] {
  const out = problems.filter((p) => copies.has(refKey(p)))
  const local = problems.filter((p) => !copies.has(refKey(p)))
  if (local.length > 0)
    log.warn('problems outside the desired state', { problems: local.slice(0, 20) })
  return out
}

export async function sendReport(
  d: { center: CenterClient; log: Logger },
  i: SendInput
): Promise<SendResult> {
  const idle = { state: i.state, reported: false, statuses: 0, upsyncApply: 0, upsyncDelete: 0 }
  const { log } = d
  const problems = reportableProblems(i.problems, i.copies, log)
  const plan = planReport({ ...i, problems })
  if (!plan) return idle
  if (plan.oversized.length > 0) log.warn('too large to report', { keys: plan.oversized })
  if (plan.problemsSent) log.warn('problems', { problems: plan.report.problems.slice(0, 20) })
  try {
    const result = await d.center.postReport(plan.report)
    if (result.rejected.length > 0)
      log.warn('the center rejected part of the report; held back until it changes', {
        rejected: result.rejected.slice(0, 20),
      })
    return {
      state: acceptReport(i.state, plan, result, i.nowMs),
      reported: true,
      statuses: plan.statuses.length,
      removed: plan.removed.length,
      upsyncApply: plan.upsyncApply.length,
      upsyncDelete: plan.upsyncDelete.length,
    }
  } catch (e) {
    return { ...idle, error: `report: ${e instanceof Error ? e.message : String(e)}` }
  }
}
