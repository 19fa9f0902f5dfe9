/**
 * Wires one watch target into the relay: each event becomes reconcile keys (event-keys.ts) queued
 * on the shared batcher, and the event's resourceVersion is committed to the cursor store (under
 * the target's id) once all its keys were flushed. After a relist, `onListed` wakes what vanished
 * in the gap. `observe` sees every event after its keys were computed, and each relist's objects
 * (the relay follows CRDs and the slice index there, to start and stop watches). If computing keys fails (e.g. listing
 * EdgePlacements), `onEvent` rejects, so the watch loop backs off and re-reads the event from the
 * previous resourceVersion.
 */
import type { KubeObject } from '../kube/types.ts'
import type { Logger } from '../log.ts'
import type { Batcher } from './batcher.ts'
import { type CommitTracker, type CursorStore, createCommitTracker } from './cursor.ts'
import {
  type EventKeysDeps,
  keysForEvent,
  keysForRelist,
  type StepKey,
  type WatchEvent,
} from './event-keys.ts'
import type { Delivery, WatchLoopOptions } from './watch-loop.ts'
import { targetId, type WatchTarget } from './watch-targets.ts'

export type ResourcePipeline = Pick<WatchLoopOptions, 'onEvent' | 'onListed' | 'cursor'> & {
  tracker: CommitTracker
}

/** What `observe` sees: one event, or the objects of a relist (after their ADDED events). */
export type Observed = { event: WatchEvent } | { listed: readonly KubeObject[] }

export type PipelineDeps = {
  batcher: Batcher
  cursors: CursorStore
  eventKeys: EventKeysDeps
  log?: Logger
  observe?(target: WatchTarget, seen: Observed): void
}

/** What a debug line says of an event: the object, its version and the keys it woke per step. */
function eventFields(target: string, event: WatchEvent, keys: readonly StepKey[]) {
  const meta = event.object?.metadata
  const steps: Record<string, number> = {}
  for (const k of keys) steps[k.step] = (steps[k.step] ?? 0) + 1
  return {
    target,
    type: event.type,
    space: meta?.annotations?.['kcp.io/cluster'],
    namespace: meta?.namespace,
    name: meta?.name,
    resourceVersion: meta?.resourceVersion,
    keys: steps,
  }
}

export function createResourcePipeline(target: WatchTarget, deps: PipelineDeps): ResourcePipeline {
  const id = targetId(target)
  const tracker = createCommitTracker(id, deps.cursors, deps.log)
  const queue = (keys: StepKey[]): Delivery => {
    const adds = keys.map((k) => deps.batcher.add(k.step, k.key))
    return { delivered: Promise.all(adds).then((oks) => oks.every(Boolean)) }
  }
  return {
    tracker,
    async onEvent(event) {
      const keys = await keysForEvent(target, event, deps.eventKeys)
      deps.observe?.(target, { event })
      if (keys.length > 0) deps.log?.debug('relay event', eventFields(id, event, keys))
      return queue(keys)
    },
    async onListed(items) {
      const keys = keysForRelist(target, items, deps.eventKeys)
      deps.observe?.(target, { listed: items })
      return queue(keys)
    },
    cursor: {
      load: () => deps.cursors.load(id),
      commit: (rv, delivered) => tracker.commit(rv, delivered),
    },
  }
}
