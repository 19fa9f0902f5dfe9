/**
 * The bell a held desired-state poll waits on (functions/edge-api/desired-hold.ts): the translate
 * step rings it after each group commit of manifests with the mailboxes written and their new
 * versions (functions/reconcile-translate/manifest-commits.ts), and a poll holding version `since`
 * of a mailbox is answered `rung` as soon as a version above it is rung, else `timeout` at the end
 * of its hold (or when its signal aborts). The bell remembers the last version rung per key, so a
 * poll that starts after the ring it would have waited for is answered at once: the poll read the
 * manifest before it waited, and any write after that read rings with a version above the one
 * read. `unknown` is a bell that cannot tell (a Durable Object that just started and may have
 * missed rings, functions/mailbox-bell.ts): the poll reads again; `failed` is a bell that could not
be asked (the poll is answered as a plain one, so its agent polls on its interval for a while).
Keys are mailbox space ids.
 *
 * `inProcessBell` is the bell of one process (the Node hub, tests; the memory of each Durable
 * Object shard in the Worker): a map of the last version per key (bounded: forgetting a key only
 * makes a later poll hold until a ring or its end, never answer wrongly) and the waiters per key.
 */

export type BellOutcome = 'rung' | 'timeout' | 'unknown' | 'failed'

export type BellWait = { timeoutMs: number; signal?: AbortSignal }

export interface Bell {
  /** Rings each key with the version it was written at; resolves once the ring is delivered. */
  ring(versions: ReadonlyMap<string, number>): Promise<void>
  /** Waits until `key` is rung above `since`, the hold ends or the signal aborts. */
  wait(key: string, since: number, opts: BellWait): Promise<BellOutcome>
}

/** What an edge API process holds polls with: its bell and the longest hold it grants (s). */
export type EdgeHold = { bell: Bell; maxSeconds: number }

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
      const known = last.get(key)
      if (known !== undefined && known > since) return Promise.resolve('rung')
      if (closed || opts.timeoutMs <= 0 || opts.signal?.aborted) return Promise.resolve('timeout')
      return new Promise<BellOutcome>((resolve) => {
        const set = waiters.get(key) ?? new Set<Waiter>()
        waiters.set(key, set)
        const onAbort = () => w.done('timeout')
        const timer = setTimeout(onAbort, opts.timeoutMs)
        const w: Waiter = {
          since,
          done: (o) => {
            clearTimeout(timer)
            opts.signal?.removeEventListener('abort', onAbort)
            if (!set.delete(w)) return
            count--
            if (set.size === 0) waiters.delete(key)
            resolve(o)
          },
        }
        set.add(w)
        count++
        opts.signal?.addEventListener('abort', onAbort, { once: true })
      })
    },
    rungVersion: (key) => last.get(key),
    waiting: () => count,
    close() {
      closed = true
      for (const set of [...waiters.values()]) for (const w of [...set]) w.done('timeout')
    },
  }
}
