/**
 * What the center has accepted from this agent (`reported.json` in the state folder), so each
 * report carries only what changed: the hash of each downsynced object's last accepted status
 * report (status, observedGeneration, associated objects), each upsynced object with the hash of
 * the body last accepted (so a vanished one is sent as a delete), the hash of the problem set
 * last accepted and the keys it named, when the last heartbeat was accepted, the removal
 * confirmations accepted (removals.ts), and what the center rejected (sent again only when it changes or with the next heartbeat). Losing this file is
 * harmless: the agent then reports everything once more.
 */
import { z } from 'zod'
import { ObjectRefSchema } from '../edge/protocol.ts'
import { readJsonFile, writeJsonAtomic } from './state-files.ts'

export const ReportStateSchema = z.object({
  statuses: z.record(z.string(), z.string()),
  upsynced: z.record(z.string(), z.object({ ref: ObjectRefSchema, hash: z.string() })),
  problems: z.string(),
  /** Keys of the objects in the problem set last accepted. */
  problemKeys: z.array(z.string()).default([]),
  lastHeartbeatMs: z.number(),
  /**
   * Items the center rejected, by `s:`/`u:`/`d:` (status, upsync apply, upsync delete) and key,
   * with the hash rejected: held back until they change or the next heartbeat.
   */
  rejected: z.record(z.string(), z.string()).default({}),
  /** Removal confirmations the center accepted, as `<key>#<tombstone rv>` (removals.ts). */
  removed: z.array(z.string()).optional(),
})
export type ReportState = z.infer<typeof ReportStateSchema>

export const emptyReportState = (): ReportState => ({
  statuses: {},
  upsynced: {},
  problems: '',
  problemKeys: [],
  lastHeartbeatMs: 0,
  rejected: {},
})

export async function loadReportState(path: string): Promise<ReportState> {
  const r = await readJsonFile(path, ReportStateSchema)
  return r.kind === 'ok' ? r.value : emptyReportState()
}

export const saveReportState = (path: string, s: ReportState) => writeJsonAtomic(path, s)
