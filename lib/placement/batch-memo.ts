/**
 * The memo of a placement step's batch reads (lib/placement/snapshot.ts, the summarize step's
 * reads): one promise per key, made by the first caller and shared by every later one, so the
 * keys of a batch running concurrently read each thing once. A failed load stays rejected for the
 * batch (every key that needed it fails and is retried); the memo is dropped with its batch, so
 * the next batch reads the world again. A load is the batch's, not the first caller's: its
 * subrequests count for the invocation but not for the key that happened to ask first
 * (lib/budget/frames.ts `measuredApart`), so the batch's pacer does not take one key's share of
 * the shared reads (a workspace's dozens of lists) for what every key costs.
 */
import { measuredApart } from '../budget/frames.ts'

/** A keyed memo of promises: `load` runs only for the first call with a key. */
export type Memo<T> = (key: string, load: () => Promise<T>) => Promise<T>

export function memo<T>(): Memo<T> {
  const cache = new Map<string, Promise<T>>()
  return (key, load) => {
    let hit = cache.get(key)
    if (!hit) {
      hit = measuredApart(load).then((m) => m.value)
      cache.set(key, hit)
    }
    return hit
  }
}
