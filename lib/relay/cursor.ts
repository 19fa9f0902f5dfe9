/**
 * Watch cursors for the relay, one per watched resource, kept in the KvStore under namespace
 * `relay-cursors`. The commit tracker saves a resourceVersion only once every event up to it has
 * been delivered (its keys flushed to the hooks), in watch order, so a crash re-delivers events
 * rather than losing them: at-least-once, which the idempotent reconcile steps tolerate. A
 * resourceVersion equal to the one last saved (an idle watch's repeated bookmarks) is not saved
 * again.
 */
import type { Logger } from '../log.ts'
import type { KvStore } from '../store/types.ts'

export const CURSOR_NS = 'relay-cursors'

export type CursorStore = {
  load(resource: string): Promise<string | undefined>
  save(resource: string, resourceVersion: string): Promise<void>
}

type CursorValue = { resourceVersion: string }

function isCursorValue(v: unknown): v is CursorValue {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as { resourceVersion?: unknown }).resourceVersion === 'string'
  )
}

export function createKvCursorStore(kv: KvStore): CursorStore {
  return {
    async load(resource) {
      const entry = await kv.get(CURSOR_NS, resource)
      return entry && isCursorValue(entry.value) && entry.value.resourceVersion
        ? entry.value.resourceVersion
        : undefined
    },
    async save(resource, resourceVersion) {
      await kv.put(CURSOR_NS, resource, { resourceVersion } satisfies CursorValue)
    },
  }
}

export type CommitTracker = {
  /** Record that the events up to `resourceVersion` are done once `delivered` resolves true. */
  commit(resourceVersion: string, delivered: Promise<boolean>): void
  /**
   * Resolves once every delivery committed so far has settled and its save has finished (for
   * shutdown, after the batcher drained; it waits as long as any delivery is pending).
   */
  settled(): Promise<void>
  /** Resolves once the saves already started have finished. */
  saving(): Promise<void>
  /** The last resourceVersion saved, if any. */
  saved(): string | undefined
}

type Entry = { rv: string; state: 'pending' | 'ok' | 'dropped' }

/**
 * Saves cursors for one resource in commit order. An entry that resolves false (dropped at
 * shutdown) or rejects blocks every later one, so the cursor never passes an undelivered event.
 */
export function createCommitTracker(
  resource: string,
  store: CursorStore,
  log?: Logger
): CommitTracker {
  const queue: Entry[] = []
  let chain: Promise<void> = Promise.resolve()
  let last: string | undefined
  /** The last resourceVersion handed to a save: an idle watch's bookmarks repeat it. */
  let queued: string | undefined
  const inFlight = new Set<Promise<unknown>>()

  const advance = () => {
    let target: string | undefined
    while (queue[0]?.state === 'ok') target = queue.shift()?.rv
    if (target === undefined || target === queued) return
    queued = target
    const rv = target
    chain = chain.then(async () => {
      try {
        await store.save(resource, rv)
        last = rv
      } catch (err) {
        if (queued === rv) queued = undefined
        log?.warn('relay cursor save failed', { resource, resourceVersion: rv, err })
      }
    })
  }

  return {
    commit(resourceVersion, delivered) {
      const entry: Entry = { rv: resourceVersion, state: 'pending' }
      queue.push(entry)
      const watched = delivered.then(
        (ok) => {
          entry.state = ok ? 'ok' : 'dropped'
          advance()
        },
        () => {
          entry.state = 'dropped'
        }
      )
      inFlight.add(watched)
      void watched.finally(() => inFlight.delete(watched))
    },
    async settled() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight])
      await chain
    },
    saving: () => chain,
    saved: () => last,
  }
}
