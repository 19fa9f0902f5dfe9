/**
 * The cron's sweeps, one bounded step per tick with their positions in the key-value store (ns
 * `maintenance`): the change-log sweep resumes its Scan at key `change-log`'s cursor and goes on
 * while the invocation's current ceiling has room (lib/store/sweep.ts); the projection sweep keeps
 * its pass under key `bodies` (lib/store/projection-sweep.ts: stage, cursor, filter, candidates)
 * and starts a new pass once BODY_PASS_INTERVAL_MS have gone by since the last one ended. The pass
 * state is written only if no other run wrote it meanwhile (a second, overlapping cron run loses
 * its step, which was harmless to repeat).
 */
import { hasRoom } from '../lib/budget/frames.ts'
import { isApiError } from '../lib/errors.ts'
import type { DynamoStore } from '../lib/store/dynamo-store.ts'
import type { BodySweepState } from '../lib/store/projection-sweep.ts'
import type { SweepCursor } from '../lib/store/sweep.ts'
import type { KvStore } from '../lib/store/types.ts'
import { MAINTENANCE_NS } from './maintenance-terminations.ts'

/** Least time between the end of one projection sweep pass and the start of the next. */
export const BODY_PASS_INTERVAL_MS = 10 * 60_000

type LogEntry = { cursor?: SweepCursor }
type BodiesEntry = { state?: BodySweepState; endedAt?: number }

/** One step of the change-log sweep, from where the last one stopped. */
export async function sweepChangeLogTick(store: DynamoStore, kv: KvStore, now: number) {
  const entry = await kv.get<LogEntry>(MAINTENANCE_NS, 'change-log')
  const result = await store.sweeps.changeLog({
    now,
    ...(entry?.value.cursor ? { cursor: entry.value.cursor } : {}),
    room: hasRoom,
  })
  await kv.put(MAINTENANCE_NS, 'change-log', result.cursor ? { cursor: result.cursor } : {})
  return result
}

/** One step of the projection sweep's pass (or nothing, between passes). */
export async function sweepBodiesTick(store: DynamoStore, kv: KvStore, now: number) {
  const entry = await kv.get<BodiesEntry>(MAINTENANCE_NS, 'bodies')
  const last = entry?.value
  if (!last?.state && last?.endedAt !== undefined && now - last.endedAt < BODY_PASS_INTERVAL_MS)
    return { waiting: true }
  const step = await store.sweeps.bodies(last?.state, hasRoom)
  const next: BodiesEntry = step.state ? { state: step.state } : { endedAt: now }
  try {
    await kv.put(MAINTENANCE_NS, 'bodies', next, entry ? entry.version : null)
  } catch (e) {
    if (!isApiError(e) || (e.code !== 409 && e.code !== 404)) throw e
  }
  const { bodies, states, pages } = step
  return { bodies, states, pages, stage: step.state?.stage ?? 'ended' }
}
