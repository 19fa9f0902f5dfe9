/**
 * What each part of a report's processing (statuses, upsync) hands back to lib/edge/apply-report.ts:
 * how many items it accepted and the ones it rejected, with the reason, as the ReportResult lists
 * them (lib/edge/protocol.ts).
 */
import type { ReportResult } from './protocol.ts'

export type Rejection = ReportResult['rejected'][number]

export type Outcome = { accepted: number; rejected: Rejection[] }
