/**
 * What every part of the DynamoDB store is handed: the client, the table, a clock, and the two
 * timing knobs. `retentionMs` is how long change-log entries are kept (the sweep's default and
 * the base of the production TTL); `settleMs` is how long a change-log entry must have existed
 * since its resourceVersion was issued before `changes()` hands it out (see `change-log.ts`).
 * A store may keep caches here that its parts share (one per store, never global).
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb'
import type { ChangeListCache } from './change-list-cache.ts'

export type StoreContext = {
  client: DynamoDBClient
  table: string
  /** Milliseconds since the epoch. */
  now: () => number
  retentionMs: number
  settleMs: number
  /** Change lists of projection log items already decoded (change-list-cache.ts), if kept. */
  changeLists?: ChangeListCache
}

/** Change-log retention when none is configured: 15 minutes. */
export const DEFAULT_LOG_RETENTION_MS = 15 * 60_000
/** Settle time for change-log entries when none is configured: 1 second. */
export const DEFAULT_SETTLE_MS = 1_000
/**
 * The production TTL (`expiresAt`) fires this long after an entry leaves the retention window,
 * so TTL never removes an entry before the sweep has raised the watermark past it.
 */
export const TTL_SLACK_MS = 24 * 60 * 60_000
