/**
 * Wires one watched resource into the relay: each event becomes reconcile keys (event-keys.ts)
 * queued on the shared batcher, and the event's resourceVersion is committed to the cursor store
 * once all its keys were flushed. If computing keys fails (e.g. listing EdgePlacements), `onEvent`
 * rejects, so the watch loop backs off and re-reads the event from the previous resourceVersion.
 */
import type { Logger } from '../log.ts'
import type { Batcher } from './batcher.ts'
import { type CommitTracker, type CursorStore, createCommitTracker } from './cursor.ts'
import { type EventKeysDeps, keysForEvent } from './event-keys.ts'
import type { WatchLoopOptions } from './watch-loop.ts'

export type ResourcePipeline = Pick<WatchLoopOptions, 'onEvent' | 'cursor'> & {
  tracker: CommitTracker
}

export function createResourcePipeline(
  resource: string,
  deps: { batcher: Batcher; cursors: CursorStore; eventKeys: EventKeysDeps; log?: Logger }
): ResourcePipeline {
  const tracker = createCommitTracker(resource, deps.cursors, deps.log)
  return {
    tracker,
    async onEvent(event) {
      const keys = await keysForEvent(resource, event, deps.eventKeys)
      const adds = keys.map((k) => deps.batcher.add(k.step, k.key))
      return { delivered: Promise.all(adds).then((oks) => oks.every(Boolean)) }
    },
    cursor: {
      load: () => deps.cursors.load(resource),
      commit: (rv, delivered) => tracker.commit(rv, delivered),
    },
  }
}
