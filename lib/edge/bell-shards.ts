/**
 * How the Worker's bell is split over Durable Objects (functions/mailbox-bell.ts): BELL_SHARDS
 * shards, a key (a mailbox space id) on shard `bellShard(key)` by a 32-bit FNV-1a hash, so one
 * object holds about a sixteenth of the fleet's held polls and a group commit rings each shard it
 * touched once (`byShard`); a shared manifest's key (bell.ts `sharedBellKey`) goes to every
 * shard, since members of any shard may wait on it. Pure, so the Node tests and the Worker agree
 * on it.
 */
import { fnv1a } from '../fnv.ts'
import { isSharedBellKey } from './bell.ts'

/** Durable Objects the bell is spread over; changing it moves keys (a poll then holds to its end). */
export const BELL_SHARDS = 16

/** The shard of `key`, 0 to shards - 1. */
export const bellShard = (key: string, shards = BELL_SHARDS): number => fnv1a(key) % shards

/** The rung versions grouped by shard, a shared manifest's in every shard's group. */
export function byShard(
  versions: ReadonlyMap<string, number>,
  shards = BELL_SHARDS
): Map<number, Map<string, number>> {
  const out = new Map<number, Map<string, number>>()
  const put = (shard: number, key: string, version: number) => {
    const group = out.get(shard) ?? new Map<string, number>()
    group.set(key, version)
    out.set(shard, group)
  }
  for (const [key, version] of versions) {
    if (!isSharedBellKey(key)) put(bellShard(key, shards), key, version)
    else for (let shard = 0; shard < shards; shard++) put(shard, key, version)
  }
  return out
}
