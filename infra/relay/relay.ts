/**
 * Runs the watch relay in-process: one watch loop per relayed resource against the hub, all
 * feeding one batcher that flushes reconcile keys to the hub's hooks, with cursors kept in a
 * KvStore. `stop()` aborts the watches, drains the batcher (one last flush attempt) and waits for
 * the cursors of delivered events to be saved. The CLI (main.ts) and the tests both start it here.
 */
import type { Logger } from '../../lib/log.ts'
import { createBatcher } from '../../lib/relay/batcher.ts'
import { createKvCursorStore } from '../../lib/relay/cursor.ts'
import { RELAY_RESOURCES } from '../../lib/relay/event-keys.ts'
import { createResourcePipeline } from '../../lib/relay/pipeline.ts'
import { runWatchLoop } from '../../lib/relay/watch-loop.ts'
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
  fetch?: FetchFn
  watchTimeoutSeconds?: number
}

export type Relay = {
  /** Logical-cluster id of root:espw, as read from the hub at start. */
  espwSpaceId: string
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

export async function startRelay(opts: RelayOptions): Promise<Relay> {
  const http = createHubHttp({
    baseUrl: opts.hubUrl,
    token: opts.token,
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
    ...(opts.watchTimeoutSeconds ? { watchTimeoutSeconds: opts.watchTimeoutSeconds } : {}),
  })
  const espwSpaceId = await http.espwSpaceId()
  const log = opts.log
  const controller = new AbortController()
  const batcher = createBatcher({
    flush: http.flush,
    delayMs: opts.delayMs ?? 200,
    maxKeys: opts.maxKeys ?? 500,
    setTimer: (fn, ms) => {
      const t = setTimeout(fn, ms)
      return () => clearTimeout(t)
    },
    random: Math.random,
    log,
  })
  const cursors = createKvCursorStore(opts.kv)
  const eventKeys = { espwSpaceId, listEdgePlacements: http.listEdgePlacements }
  const pipelines = RELAY_RESOURCES.map((resource) => ({
    resource,
    pipeline: createResourcePipeline(resource, { batcher, cursors, eventKeys, log }),
  }))
  const loops = pipelines.map(({ resource, pipeline }) =>
    runWatchLoop({
      resource,
      openWatch: (rv, signal) => http.openWatch(resource, rv, signal),
      list: () => http.list(resource),
      onEvent: pipeline.onEvent,
      cursor: pipeline.cursor,
      log,
      sleep,
      random: Math.random,
      signal: controller.signal,
    }).catch((err: unknown) => log.error('relay watch loop stopped', { resource, err }))
  )
  log.info('relay started', { hub: opts.hubUrl, espwSpaceId, resources: RELAY_RESOURCES })

  let stopping: Promise<void> | undefined
  return {
    espwSpaceId,
    stop() {
      stopping ??= (async () => {
        controller.abort()
        await Promise.all(loops)
        await batcher.drain()
        await Promise.all(pipelines.map(({ pipeline }) => pipeline.tracker.settled()))
        log.info('relay stopped', {
          cursors: Object.fromEntries(
            pipelines.map((p) => [p.resource, p.pipeline.tracker.saved()])
          ),
        })
      })()
      return stopping
    },
  }
}
