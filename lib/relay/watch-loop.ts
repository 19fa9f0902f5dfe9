/**
 * One resource's watch for the relay. It starts from the saved cursor, or, with none, lists every
 * object (handing each to `onEvent` as ADDED) and watches from the list's resourceVersion. An
 * ERROR event carrying 410, or an Expired error, means the cursor is older than the hub's change
 * log: it relists (keys are idempotent, so re-waking everything is safe) and goes on. Other
 * failures back off (exponential, jittered, capped) and reconnect from the last resourceVersion
 * handed over. A watch the server ends cleanly reconnects at once. Stops when `signal` aborts.
 * With `listOnStart` the first round lists even when a cursor was saved (for state kept in memory);
 * after every list `onListed` sees the listed objects (to notice what vanished in a gap).
 */
import type { KubeObject } from '../kube/types.ts'
import type { Logger } from '../log.ts'
import { type BackoffPolicy, backoffDelay, DEFAULT_BACKOFF } from './backoff.ts'

export type RawWatchEvent = { type: string; object: KubeObject }

/** What `onEvent` hands back: `delivered` resolves true once the event's keys were flushed. */
export type Delivery = { delivered: Promise<boolean> }

export type WatchLoopOptions = {
  resource: string
  openWatch(resourceVersion: string, signal: AbortSignal): AsyncIterable<RawWatchEvent>
  list(): Promise<{ items: KubeObject[]; resourceVersion: string }>
  onEvent(event: RawWatchEvent): Promise<Delivery>
  /** Called after a list's objects were handed over as ADDED. */
  onListed?(items: KubeObject[]): Promise<Delivery>
  /** List first even when a cursor was saved. */
  listOnStart?: boolean
  /**
   * Called each time the loop has found where to watch from: after a list's objects were handed
   * over, or once a saved cursor was loaded.
   */
  onPositioned?(): void
  cursor: {
    load(): Promise<string | undefined>
    commit(resourceVersion: string, delivered: Promise<boolean>): void
  }
  log: Logger
  /** Waits `ms`, resolving early when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>
  random: () => number
  signal: AbortSignal
  backoff?: BackoffPolicy
}

/** True for a 410 Gone / Expired, as an error (`code`, `status`, `statusCode`) or a Status body. */
export function isGone(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false
  const v = value as Record<string, unknown>
  if (v.reason === 'Expired' || v.reason === 'Gone') return true
  return [v.code, v.status, v.statusCode].some((c) => c === 410)
}

class Gone extends Error {
  override name = 'Gone'
}

const delivered = (deliveries: Delivery[]): Promise<boolean> =>
  Promise.all(deliveries.map((d) => d.delivered)).then((oks) => oks.every(Boolean))

/** Lists, hands each object over as ADDED, then the list to `onListed`; returns its rv. */
async function listAll(o: WatchLoopOptions, log: Logger): Promise<string> {
  const listed = await o.list()
  const deliveries: Delivery[] = []
  for (const object of listed.items) {
    if (o.signal.aborted) break
    deliveries.push(await o.onEvent({ type: 'ADDED', object }))
  }
  if (o.onListed && !o.signal.aborted) deliveries.push(await o.onListed(listed.items))
  if (!o.signal.aborted) o.cursor.commit(listed.resourceVersion, delivered(deliveries))
  log.info('relay listed', { items: listed.items.length, resourceVersion: listed.resourceVersion })
  return listed.resourceVersion
}

type LoopState = {
  rv: string | undefined
  failures: number
  mustList: boolean
  /**
   * 410s in a row with nothing watched in between: the hub keeps refusing a fresh list's
   * resourceVersion, so back off instead of relisting in a tight loop.
   */
  goneStreak: number
}

/** Where to watch from: the current position, else a list (when told) or the saved cursor. */
async function position(o: WatchLoopOptions, st: LoopState, log: Logger): Promise<string> {
  if (st.rv === undefined) {
    st.rv = st.mustList
      ? await listAll(o, log)
      : ((await o.cursor.load()) ?? (await listAll(o, log)))
    st.mustList = false
    o.onPositioned?.()
  }
  return st.rv
}

/** Watches from `from` until the stream ends; returns how many events it carried. */
async function watchFrom(o: WatchLoopOptions, st: LoopState, from: string): Promise<number> {
  let seen = 0
  for await (const event of o.openWatch(from, o.signal)) {
    if (o.signal.aborted) break
    if (event.type === 'ERROR') {
      if (isGone(event.object)) throw new Gone(`resourceVersion ${from} expired`)
      throw new Error(`watch error event: ${JSON.stringify(event.object)}`)
    }
    seen += 1
    st.failures = 0
    const next = event.object?.metadata?.resourceVersion
    const d =
      event.type === 'BOOKMARK' ? { delivered: Promise.resolve(true) } : await o.onEvent(event)
    if (next) {
      st.rv = next
      o.cursor.commit(next, d.delivered)
    }
  }
  return seen
}

export async function runWatchLoop(o: WatchLoopOptions): Promise<void> {
  const log = o.log.child({ resource: o.resource })
  const policy = o.backoff ?? DEFAULT_BACKOFF
  const st: LoopState = {
    rv: undefined,
    failures: 0,
    mustList: o.listOnStart ?? false,
    goneStreak: 0,
  }
  const pause = async (why: string, fields: Record<string, unknown>) => {
    st.failures += 1
    const delay = backoffDelay(st.failures, policy, o.random)
    log.warn(why, { ...fields, resourceVersion: st.rv, retryInMs: delay })
    await o.sleep(delay, o.signal)
  }
  while (!o.signal.aborted) {
    try {
      const from = await position(o, st, log)
      if (o.signal.aborted) break
      // A stream that ends with no events at all is treated as a failure, so a server closing
      // watches at once cannot spin this loop.
      const seen = await watchFrom(o, st, from)
      if (seen > 0) st.goneStreak = 0
      if (seen === 0 && !o.signal.aborted) await pause('relay watch ended empty', {})
    } catch (err) {
      if (o.signal.aborted) break
      if (!(err instanceof Gone || isGone(err))) {
        await pause('relay watch failed; reconnecting', { err })
        continue
      }
      log.info('relay cursor expired; relisting', { resourceVersion: st.rv })
      st.rv = undefined
      st.mustList = true
      st.goneStreak++
      if (st.goneStreak > 1) await pause('relay cursor expired again right after a relist', {})
    }
  }
}
