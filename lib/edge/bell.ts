/**
 * The bell a held desired-state poll waits on (functions/edge-api/desired-hold.ts): the translate
 * step rings it after each group commit of manifests with the mailboxes written and their new
 * versions (functions/reconcile-translate/manifest-commits.ts), and a poll holding version `since`
 * of a mailbox is answered `rung` as soon as a version above it is rung, else `timeout` at the end
 * of its hold (or when its signal aborts). The bell remembers the last version rung per key, so a
 * poll that starts after the ring it would have waited for is answered at once: the poll read the
 * manifest before it waited, and any write after that read rings with a version above the one
 * read. A mailbox whose copies live in a shared manifest (lib/store/shared-manifest.ts) moves when
 * that manifest is written, whichever member's run wrote it: its poll also waits on the shared
 * manifest's key (`also`, `sharedBellKey`), which the group commit rings with the shared version.
 * `unknown` is a bell that cannot tell (a Durable Object that just started and may have
 * missed rings, functions/mailbox-bell.ts): the poll reads again; `failed` is a bell that could not
be asked (the poll is answered as a plain one, so its agent polls on its interval for a while).
Keys are mailbox space ids.
 *
 * `inProcessBell` is the bell of one process (the Node hub, tests; the memory of each Durable
 * Object shard in the Worker): a map of the last version per key (bounded: forgetting a key only
 * makes a later poll hold until a ring or its end, never answer wrongly) and the waiters per key.
 */

import type { WakeGate } from './wake-gate.ts'

export type BellOutcome = 'rung' | 'timeout' | 'unknown' | 'failed'

export type BellWait = {
  timeoutMs: number
  signal?: AbortSignal
  /** More keys whose ring above `since` answers the wait too (the mailbox's shared manifest). */
  also?: readonly string[]
}

/** The bell key of shared manifest `id`: rung to every shard, since any mailbox may share it. */
export const sharedBellKey = (id: string) => `shared:${id}`
export const isSharedBellKey = (key: string) => key.startsWith('shared:')

export interface Bell {
  /** Rings each key with the version it was written at; resolves once the ring is delivered. */
  ring(versions: ReadonlyMap<string, number>): Promise<void>
  /** Waits until `key` is rung above `since`, the hold ends or the signal aborts. */
  wait(key: string, since: number, opts: BellWait): Promise<BellOutcome>
}

/** What an edge API process holds polls with: its bell and the longest hold it grants (s). */
export type EdgeHold = {
  bell: Bell
  maxSeconds: number
  /** The woken polls' answers, a few at a time (wake-gate.ts); none: unbounded. */
  wakes?: WakeGate
}

/** Keys remembered at most; past it the memory starts again (see the header). */
export const BELL_MEMORY_LIMIT = 100_000

type Waiter = { since: number; done: (o: BellOutcome) => void }

export type InProcessBell = Bell & {
  /** The version last rung for `key`, if remembered. */
  rungVersion(key: string): number | undefined
  /** Waiters at this moment (tests, the Durable Object's stats). */
  waiting(): number
  /** Answers every waiter `timeout` and every later wait at once (a server closing). */
  close(): void
}

export function inProcessBell(limit = BELL_MEMORY_LIMIT): InProcessBell {
  const last = new Map<string, number>()
  const waiters = new Map<string, Set<Waiter>>()
  let closed = false
  let count = 0

  const unwatch = (key: string, w: Waiter) => {
    const set = waiters.get(key)
    if (!set?.delete(w)) return
    if (set.size === 0) waiters.delete(key)
  }

  const ringOne = (key: string, version: number) => {
    const before = last.get(key)
    if (before !== undefined && before >= version) return
    if (before === undefined && last.size >= limit) last.clear()
    last.set(key, version)
    const set = waiters.get(key)
    if (!set) return
    for (const w of [...set]) if (version > w.since) w.done('rung')
  }

  return {
    async ring(versions) {
      for (const [key, version] of versions) ringOne(key, version)
    },
    wait(key, since, opts) {
      const keys = [key, ...(opts.also ?? [])]
      if (keys.some((k) => (last.get(k) ?? -1) > since)) return Promise.resolve('rung')
      if (closed || opts.timeoutMs <= 0 || opts.signal?.aborted) return Promise.resolve('timeout')
      return new Promise<BellOutcome>((resolve) => {
        const onAbort = () => w.done('timeout')
        const timer = setTimeout(onAbort, opts.timeoutMs)
        let settled = false
        const w: Waiter = {
          since,
          done: (o) => {
            if (settled) return
            settled = true
            clearTimeout(timer)
            opts.signal?.removeEventListener('abort', onAbort)
            for (const k of keys) unwatch(k, w)
            count--
            resolve(o)
          },
        }
        for (const k of keys) {
          const set = waiters.get(k) ?? new Set<Waiter>()
          waiters.set(k, set)
          set.add(w)
        }
        count++
        opts.signal?.addEventListener('abort', onAbort, { once: true })
      })
    },
    rungVersion: (key) => last.get(key),
    waiting: () => count,
    close() {
      closed = true
      for (const set of [...waiters.values()]) for (const w of [...set]) w.done('timeout')
      waiters.clear()
    },
  }
}
