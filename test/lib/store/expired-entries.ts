/**
 * Expired change-log entries written straight into a table, for the paged sweep's tests: more
 * than two Scan pages (1,000 items each), stamped at time 0 so every retention window has passed.
 */
import { BatchWriteItemCommand } from '@aws-sdk/client-dynamodb'
import { logPk, padRv } from '../../../lib/store/keys.ts'
import type { TestStore } from '../../helpers/dynalite.ts'

export const EXPIRED_ENTRIES = 2500

/** Writes `count` change-log entries (rv 1..count, over 7 collections) at time 0. */
export async function writeExpiredEntries(store: TestStore, count = EXPIRED_ENTRIES) {
  const items = Array.from({ length: count }, (_, i) => ({
    pk: { S: logPk(`c${i % 7}`, '', 'configmaps') },
    sk: { S: padRv(i + 1) },
    rv: { N: String(i + 1) },
    ts: { N: '0' },
  }))
  for (let at = 0; at < items.length; at += 25) {
    const puts = items.slice(at, at + 25).map((Item) => ({ PutRequest: { Item } }))
    await store.client.send(
      new BatchWriteItemCommand({ RequestItems: { [store.tableName]: puts } })
    )
  }
}
