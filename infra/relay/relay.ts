/**
 * Runs the watch relay in-process. At start it reads the espw space id and the hub's discovery,
 * and picks the watch targets (lib/relay/watch-targets.ts): the core kinds, plus every resource a
 * placement can select. A watch set (lib/relay/watch-set.ts) runs one watch loop per target: the
 * core ones always, the others while some space holds a slice, and each CRD's resource in its
 * space while that space does. All loops feed one batcher that flushes reconcile keys to the hub's
 * hooks (retrying keys the hook reports failed, honouring requeueAfterMs), with a cursor per
 * target in a KvStore. `stop()` aborts the watches, drains the batcher (one last flush attempt)
 * and waits for the cursors of delivered events to be saved. main.ts and the tests start it here.
 */
import type { Logger } from '../../lib/log.ts'
import { createBatcher } from '../../lib/relay/batcher.ts'
import { createCrdTargets } from '../../lib/relay/crd-targets.ts'
import { createKvCursorStore } from '../../lib/relay/cursor.ts'
import type { EventKeysDeps } from '../../lib/relay/event-keys.ts'
import {
  createResourcePipeline,
  type Observed,
  type ResourcePipeline,
} from '../../lib/relay/pipeline.ts'
import { createSliceIndex } from '../../lib/relay/slice-index.ts'
import { createSummarizeKeysState } from '../../lib/relay/summarize-keys.ts'
import { runWatchLoop } from '../../lib/relay/watch-loop.ts'
import { createWatchSet, desiredTargets, type RunningWatch } from '../../lib/relay/watch-set.ts'
import {
  CRDS,
  listsOnStart,
  SLICES,
  selectWatchTargets,
  targetId,
  targetPath,
  type WatchTarget,
} from '../../lib/relay/watch-targets.ts'
import type { KvStore } from '../../lib/store/types.ts'
import { createHubHttp, type FetchFn } from './hub-http.ts'

export type RelayOptions = {
  hubUrl: string
  token: string
  /** Where watch cursors are kept. */
  kv: KvStore
  log: Logger
  /** How long keys are collected before a flush (default 200). */
  delayMs?: number
  maxKeys?: number
  /** Attempts for a key the hook reports failed (default 5). */
  maxKeyAttempts?: number
  /** How long a watch no longer needed keeps running (default 60 s). */
  lingerMs?: number
  fetch?: FetchFn
  watchTimeoutSeconds?: number
}

export type Relay = {
  /** Logical-cluster id of root:espw, as read from the hub at start. */
  espwSpaceId: string
  /** Paths of the watches running now. */
  watches(): string[]
  /** Aborts the watches, drains pending keys and waits for cursor saves. */
  stop(): Promise<void>
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done)
  })
}

const setTimer = (fn: () => void, ms: number) => {
  const t = setTimeout(fn, ms)
  return () => clearTimeout(t)
}

const isTarget = (t: WatchTarget, like: WatchTarget) =>
  t.space === undefined && t.group === like.group && t.resource === like.resource

export async function startRelay(opts: RelayOptions): Promise<Relay> {
  const http = createHubHttp({
    baseUrl: opts.hubUrl,
    token: opts.token,
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
    ...(opts.watchTimeoutSeconds ? { watchTimeoutSeconds: opts.watchTimeoutSeconds } : {}),
  })
  const espwSpaceId = await http.espwSpaceId()
  const discovered = await http.discover()
  const targets = selectWatchTargets(discovered)
  const builtins = new Set(discovered.map((r) => `${r.group}/${r.resource}`))
  const log = opts.log
  const controller = new AbortController()
  const batcher = createBatcher({
    flush: http.flush,
    delayMs: opts.delayMs ?? 200,
    maxKeys: opts.maxKeys ?? 500,
    ...(opts.maxKeyAttempts ? { maxKeyAttempts: opts.maxKeyAttempts } : {}),
    setTimer,
    random: Math.random,
    log,
  })
  const cursors = createKvCursorStore(opts.kv)
  const index = createSliceIndex()
  const crds = createCrdTargets({ espwSpaceId, isBuiltin: (g, r) => builtins.has(`${g}/${r}`) })
  const eventKeys: EventKeysDeps = {
    espwSpaceId,
    listEdgePlacements: http.listEdgePlacements,
    index,
    summarize: createSummarizeKeysState(),
    specs: new Map(),
  }
  const pipelines = new Map<string, ResourcePipeline>()
  const refresh = () => watchSet.update(desiredTargets(targets, index, crds))
  const observe = (target: WatchTarget, seen: Observed) => {
    if (isTarget(target, CRDS)) {
      if ('event' in seen) crds.apply(seen.event)
      else crds.retain(seen.listed)
    }
    if (isTarget(target, CRDS) || isTarget(target, SLICES)) refresh()
  }
  const pipelineFor = (target: WatchTarget): ResourcePipeline => {
    const id = targetId(target)
    let p = pipelines.get(id)
    if (!p) {
      p = createResourcePipeline(target, { batcher, cursors, eventKeys, log, observe })
      pipelines.set(id, p)
    }
    return p
  }
  const start = (target: WatchTarget): RunningWatch => {
    const pipeline = pipelineFor(target)
    const own = new AbortController()
    const done = runWatchLoop({
      resource: targetId(target),
      openWatch: (rv, signal) => http.openWatch(target, rv, signal),
      list: () => http.list(target),
      onEvent: pipeline.onEvent,
      ...(pipeline.onListed ? { onListed: pipeline.onListed } : {}),
      cursor: pipeline.cursor,
      listOnStart: listsOnStart(target),
      log,
      sleep,
      random: Math.random,
      signal: AbortSignal.any([controller.signal, own.signal]),
    }).catch((err: unknown) => log.error('relay watch loop stopped', { target, err }))
    return {
      stop: async () => {
        own.abort()
        await done
      },
    }
  }
  const watchSet = createWatchSet({ start, setTimer, lingerMs: opts.lingerMs ?? 60_000, log })
  refresh()
  log.info('relay started', {
    hub: opts.hubUrl,
    espwSpaceId,
    targets: targets.length,
    watching: watchSet.running().length,
  })

  let stopping: Promise<void> | undefined
  return {
    espwSpaceId,
    watches: () => watchSet.running().map(targetPath),
    stop() {
      stopping ??= (async () => {
        controller.abort()
        await watchSet.stopAll()
        await batcher.drain()
        await Promise.all([...pipelines.values()].map((p) => p.tracker.settled()))
        log.info('relay stopped', {
          cursors: Object.fromEntries([...pipelines].map(([id, p]) => [id, p.tracker.saved()])),
        })
      })()
      return stopping
    },
  }
}
