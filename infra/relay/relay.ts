/**
 * Runs the watch relay in-process. At start it reads the espw space id and the hub's discovery,
 * and picks the watch targets (lib/relay/watch-targets.ts): the core kinds, plus every resource a
 * placement can select. A watch set (lib/relay/watch-set.ts) runs one watch loop per target: the
 * core ones always, the others while some space holds a slice, and each CRD's resource in its
 * space while that space does. All loops feed one batcher that flushes reconcile keys to the hub's
 * hooks (retrying keys the hook reports failed, and whole calls that failed or got no answer
 * within `hubTimeoutMs`, honouring requeueAfterMs), with a cursor per
 * target in a KvStore. `stop()` aborts the watches, drains the batcher (one last flush attempt)
 * and waits for the cursors of delivered events to be saved. Events, hook calls, reconnections and
 * relists are counted into `registry` (lib/relay/relay-metrics.ts); `collectMetrics()` sets the
 * gauges before a scrape, and `live()` / `ready()` answer the probes (main.ts serves them). main.ts
 * and the tests start it here.
 */
import { linkedSignal } from '../../lib/linked-signal.ts'
import type { Logger } from '../../lib/log.ts'
import type { Check } from '../../lib/metrics/health-server.ts'
import { MetricsRegistry } from '../../lib/metrics/registry.ts'
import { createBatcher } from '../../lib/relay/batcher.ts'
import { createCrdTargets } from '../../lib/relay/crd-targets.ts'
import { createKvCursorStore } from '../../lib/relay/cursor.ts'
import type { EventKeysDeps } from '../../lib/relay/event-keys.ts'
import {
  createResourcePipeline,
  type Observed,
  type ResourcePipeline,
} from '../../lib/relay/pipeline.ts'
import { createPlacementList } from '../../lib/relay/placement-list.ts'
import { createProviderSpaces } from '../../lib/relay/provider-spaces.ts'
import { createRelayMetrics } from '../../lib/relay/relay-metrics.ts'
import { createRolloutIndex } from '../../lib/relay/rollout-keys.ts'
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
import type { FetchFn } from '../../lib/remote/node-transport.ts'
import type { KvStore } from '../../lib/store/types.ts'
import type { Liveness } from '../../lib/summarize/liveness.ts'
import { createHubHttp } from './hub-http.ts'

/** How long a slice event's keys wait at most for the watches it started to list. */
const POSITION_WAIT_MS = 5000

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
  /** How long a slice event's keys wait at most for the watches it started (default 5 s). */
  positionWaitMs?: number
  fetch?: FetchFn
  watchTimeoutSeconds?: number
  /** Limit for each hook call (default 30 s); each read of the hub gets a third (hub-http.ts). */
  hubTimeoutMs?: number
  /** Where the relay's metrics are counted (default: a registry of its own). */
  registry?: MetricsRegistry
  /** The edges' staleness rule, as the Worker's (default DEFAULT_LIVENESS). */
  liveness?: Liveness
}

export type Relay = {
  /** Logical-cluster id of root:espw, as read from the hub at start. */
  espwSpaceId: string
  /** Paths of the watches running now. */
  watches(): string[]
  /** Aborts the watches, drains pending keys and waits for cursor saves. */
  stop(): Promise<void>
  /** The registry the relay counts into. */
  registry: MetricsRegistry
  /** Sets the gauges (watches, keys waiting, cursor lag) from the current state. */
  collectMetrics(): void
  live(): Check
  ready(): Check
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
    ...(opts.hubTimeoutMs ? { timeoutMs: opts.hubTimeoutMs } : {}),
  })
  const espwSpaceId = await http.espwSpaceId()
  const discovered = await http.discover()
  const targets = selectWatchTargets(discovered)
  const builtins = new Set(discovered.map((r) => `${r.group}/${r.resource}`))
  const log = opts.log
  const registry = opts.registry ?? new MetricsRegistry()
  const metrics = createRelayMetrics(registry)
  const controller = new AbortController()
  const batcher = createBatcher({
    flush: (step, keys) => metrics.flush(step, keys, () => http.flush(step, keys)),
    delayMs: opts.delayMs ?? 200,
    // A lone change goes to its step at once; a burst collects behind the flush it started.
    leading: true,
    maxKeys: opts.maxKeys ?? 500,
    ...(opts.maxKeyAttempts ? { maxKeyAttempts: opts.maxKeyAttempts } : {}),
    setTimer,
    random: Math.random,
    log,
  })
  const cursors = createKvCursorStore(opts.kv)
  const index = createSliceIndex()
  const crds = createCrdTargets({ espwSpaceId, isBuiltin: (g, r) => builtins.has(`${g}/${r}`) })
  const placements = createPlacementList(http.listEdgePlacements)
  const eventKeys: EventKeysDeps = {
    espwSpaceId,
    providers: createProviderSpaces(espwSpaceId),
    listEdgePlacements: placements.list,
    listSyncTargets: http.listSyncTargets,
    placementSeen: placements.observe,
    index,
    summarize: createSummarizeKeysState(opts.liveness),
    rollouts: createRolloutIndex(),
    specs: new Map(),
    sources: new Map(),
    syncTargets: new Map(),
    mailboxes: new Map(),
    wheres: new Map(),
    woken: new Map(),
  }
  const pipelines = new Map<string, ResourcePipeline>()
  /** The last resourceVersion each watch received (for the cursor lag). */
  const received = new Map<string, { target: WatchTarget; rv: string }>()
  /** While `refresh` runs: the watches it starts, each resolving once it has found its position. */
  let starting: Promise<void>[] | undefined
  /**
   * Brings the watch set to what the slices and CRDs ask for. While the watches it started list
   * (or load their cursors), at most `positionWaitMs`, the batcher starts no flush: the keys of the
   * slice event that started them and those of the objects their lists replay go out together, so
   * a space's first placement translates each mailbox once, not twice.
   */
  const refresh = () => {
    const started: Promise<void>[] = []
    starting = started
    try {
      watchSet.update(desiredTargets(targets, index, crds))
    } finally {
      starting = undefined
    }
    if (started.length === 0) return
    const release = batcher.hold()
    const cancel = setTimer(release, opts.positionWaitMs ?? POSITION_WAIT_MS)
    void Promise.all(started).then(() => {
      cancel()
      release()
    })
  }
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
    const id = targetId(target)
    // Linked to the relay's, let go when the watch stops: watches of CRDs come and go.
    const own = linkedSignal([controller.signal])
    const { signal } = own
    let opens = 0
    let lists = 0
    let positioned = () => {}
    starting?.push(new Promise<void>((resolve) => (positioned = resolve)))
    const done = runWatchLoop({
      resource: id,
      openWatch: (rv, s) => {
        metrics.opened(target, opens++ === 0)
        return http.openWatch(target, rv, s)
      },
      list: () => {
        metrics.listed(target, lists++ === 0)
        return http.list(target)
      },
      onEvent: (event) => {
        metrics.event(target, event.type)
        return pipeline.onEvent(event)
      },
      ...(pipeline.onListed ? { onListed: pipeline.onListed } : {}),
      cursor: {
        load: pipeline.cursor.load,
        commit: (rv, delivered) => {
          received.set(id, { target, rv })
          pipeline.cursor.commit(rv, delivered)
        },
      },
      listOnStart: listsOnStart(target),
      onPositioned: () => positioned(),
      log,
      sleep,
      random: Math.random,
      signal,
    }).then(
      () => {
        if (!signal.aborted) metrics.loopEnded(target)
      },
      (err: unknown) => {
        log.error('relay watch loop stopped', { target, err })
        metrics.loopEnded(target)
      }
    )
    void done.then(positioned)
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
  const collectMetrics = () => {
    const pendingKeys: Record<string, number> = { ...batcher.pending() }
    for (const [step, n] of Object.entries(batcher.delayed()))
      pendingKeys[step] = (pendingKeys[step] ?? 0) + n
    const cursors = [...received].map(([id, c]) => {
      const saved = pipelines.get(id)?.tracker.saved()
      return { target: c.target, received: c.rv, ...(saved ? { saved } : {}) }
    })
    metrics.collect({ watches: watchSet.running().length, pendingKeys, cursors })
  }
  return {
    espwSpaceId,
    watches: () => watchSet.running().map(targetPath),
    registry,
    collectMetrics,
    live: metrics.live,
    ready: metrics.ready,
    stop() {
      stopping ??= (async () => {
        metrics.stopping()
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
