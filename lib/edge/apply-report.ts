/**
 * A report from an edge agent (lib/edge/protocol.ts), landed in its mailbox: statuses and problems
 * on the projected copies (report-statuses.ts), removal confirmations of tombstones
 * (report-removals.ts), upsynced objects as real mailbox objects
 * (upsync.ts), liveness on the SyncTarget and the agent's version and poll interval in its lease
 * (heartbeat.ts; only with a heartbeat). The caller has authorized the agent for
 * the mailbox and resolved its space. Everything is idempotent, so the agent may resend a report
 * whose answer it lost; items that cannot be taken are listed in the result with the reason, and
 * the rest is taken all the same. The manifest is read once and shared by the parts that need it.
 */
import { badRequest } from '../errors.ts'
import type { HubClient } from '../hub/client.ts'
import type { HubDeps } from '../hub/deps.ts'
import type { HeartbeatMemo } from '../hub/hub-caches.ts'
import type { Space } from '../hub/spaces.ts'
import { causesFromZod } from '../kube/validate-zod.ts'
import { syncerConfigEntry } from '../placement/syncer-config.ts'
import type { Manifest } from '../store/projection-types.ts'
import { upsyncSetsOf } from '../upsync/match.ts'
import { recordHeartbeat } from './heartbeat.ts'
import { type Report, type ReportResult, ReportSchema } from './protocol.ts'
import { applyRemovals } from './report-removals.ts'
import { applyStatuses } from './report-statuses.ts'
import { applyUpsync } from './upsync.ts'

/** The field manager of upsync writes. */
export const UPSYNC_MANAGER = 'edge-upsync'

export type ReportEnv = {
  deps: HubDeps
  /** A hub client for the upsync writes (field manager UPSYNC_MANAGER). */
  client: HubClient
  /** Heartbeats already seen; default the hub's memo (`deps.caches.heartbeats`). */
  heartbeats?: HeartbeatMemo
}

/** The report in `body`, or 400 BadRequest naming the offending fields. */
export function parseReport(body: unknown): Report {
  if (body === undefined) throw badRequest('the request body must be a JSON Report')
  const parsed = ReportSchema.safeParse(body)
  if (parsed.success) return parsed.data
  const causes = causesFromZod(ReportSchema, body)
  const text = causes.map((c) => (c.field ? `${c.field}: ${c.message}` : c.message)).join(', ')
  throw badRequest(`invalid Report: ${text}`, causes)
}

function once<T>(load: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined
  return () => {
    p ??= load()
    return p
  }
}

/** `mailbox.name` is the mailbox name, `mailbox.space` its space `root:espw:<name>`. */
export async function applyReport(
  env: ReportEnv,
  mailbox: { name: string; space: Space },
  report: Report
): Promise<ReportResult> {
  const { deps } = env
  const manifest = once(() => deps.projections.getManifest(mailbox.space.id))
  const sets = async () => {
    const m: Manifest | undefined = await manifest()
    const entry = syncerConfigEntry(m?.entries ?? [])
    const body = entry && (await deps.projections.getBodies([entry.hash])).get(entry.hash)
    return upsyncSetsOf(body)
  }
  const [statuses, upsync, removed] = await Promise.all([
    applyStatuses(deps.projections, mailbox.space.id, {
      statuses: report.statuses,
      problems: report.problems,
      readManifest: manifest,
    }),
    applyUpsync(env, mailbox.space, report.upsync, sets),
    applyRemovals(deps.projections, mailbox.space.id, report.removed ?? [], manifest),
    report.heartbeat ? recordHeartbeat(deps, mailbox.name, env.heartbeats, report.agent) : 0,
  ])
  return {
    kind: 'ReportResult',
    accepted: statuses.accepted + upsync.accepted + removed.accepted,
    rejected: [...statuses.rejected, ...upsync.rejected, ...removed.rejected],
  }
}
