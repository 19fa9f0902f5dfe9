/**
 * Epochs: counters a writer moves after it changed one class of stored things, so that a process
 * may keep what it read of that class and trust it, without reading it again, for as long as the
 * counter stands still. Four exist: `credentials` (moved after a token record is replaced or
 * revoked: lib/auth/tokens.ts) and `manifests` (moved after a mailbox manifest is written or
 * deleted: the translate step, the mailbox space's deletion), which let the edge API answer an
 * idle poll from memory (functions/edge-api/desired.ts), and `spaces` (moved when a space turns
 * Terminating or goes: lib/hub/spaces.ts), which lets the API remember space records
 * (lib/hub/space-cache.ts), and `quotas` (moved after a SpaceQuota is written or deleted:
 * lib/quota/quotas.ts), which lets every create and delete know the quotas without a read.
 *
 * An epoch is the version of key-value entry `epochs/<name>` (kv-store.ts: an unconditional put
 * adds one), 0 while the entry does not exist. A reader takes the value of its store at most once
 * per `EPOCH_MAX_AGE_MS` (one store per isolate or process); whoever finds the value too old reads
 * it, the others use the last value meanwhile — only the value is shared, never a read in flight,
 * since in a Worker one request must not wait on I/O another started. A cache entry records the
 * epoch read *before* the thing itself, so a change that lands after that read, and the move of
 * the epoch that follows it, always make the entry untrusted. What a reader may miss: a change
 * whose epoch move happened within the last EPOCH_MAX_AGE_MS (or has not happened yet). A failed
 * read answers undefined: trust nothing.
 */
import { perStore } from './per-store.ts'
import type { KvStore } from './types.ts'

export const EPOCHS_NS = 'epochs'
/** How old the shared value may be (ms) before a reader reads it again. */
export const EPOCH_MAX_AGE_MS = 1_000
/** A read in flight longer than this no longer stops others from reading (ms). */
const READ_STALE_MS = 2_000

export type EpochName = 'credentials' | 'manifests' | 'spaces' | 'quotas'

type Known = { value: number; readAt: number }
type Reader = { known?: Known; readingSince?: number }

const readersOf = perStore((): Map<EpochName, Reader> => new Map())

/**
 * Moves epoch `name` on: every cache entry read before this call is no longer trusted. Readers of
 * the same store see the new value at once; other processes within EPOCH_MAX_AGE_MS.
 */
export async function bumpEpoch(kv: KvStore, name: EpochName): Promise<void> {
  const value = await kv.put(EPOCHS_NS, name, { name })
  const readers = readersOf(kv)
  const r = readers.get(name) ?? {}
  readers.set(name, r)
  if (!r.known || r.known.value < value) r.known = { value, readAt: Date.now() }
}

/**
 * The current value of epoch `name` as this store knows it, read again when older than
 * `maxAgeMs`; undefined when it could not be read.
 */
export async function currentEpoch(
  kv: KvStore,
  name: EpochName,
  now: number = Date.now(),
  maxAgeMs = EPOCH_MAX_AGE_MS
): Promise<number | undefined> {
  const readers = readersOf(kv)
  const r = readers.get(name) ?? {}
  readers.set(name, r)
  const fresh = r.known !== undefined && now - r.known.readAt <= maxAgeMs && now >= r.known.readAt
  const reading = r.readingSince !== undefined && now - r.readingSince < READ_STALE_MS
  if (fresh || (reading && r.known)) return r.known?.value
  r.readingSince = now
  try {
    const entry = await kv.get(EPOCHS_NS, name)
    const value = entry?.version ?? 0
    if (!r.known || r.known.readAt <= now) r.known = { value, readAt: now }
    return value
  } catch {
    return undefined
  } finally {
    r.readingSince = undefined
  }
}

/** Least time between two moves of one announcer (ms): readers elsewhere see a move within
 * EPOCH_MAX_AGE_MS anyway. */
export const ANNOUNCE_SPACING_MS = 250
const ANNOUNCE_ATTEMPTS = 3

export type EpochAnnouncer = {
  /** Asks for a move after this call; returns at once. */
  announce(): void
  /**
   * Resolves once every move asked for has happened (rejects when one failed three times); the
   * request must await it before it ends.
   */
  settle(): Promise<void>
}

/**
 * A mover of epoch `name` for the writes of one request (never share it between requests: a
 * Worker request must not wait on I/O another started). Writes announce without waiting; the
 * announcer moves the epoch once, then again at most every ANNOUNCE_SPACING_MS while writes keep
 * asking, so a batch of a thousand writes costs a few moves, not a thousand; `settle()` (the batch
 * is done) makes the last move at once and waits for it.
 */
export function epochAnnouncer(
  kv: KvStore,
  name: EpochName,
  spacingMs = ANNOUNCE_SPACING_MS
): EpochAnnouncer {
  let asked = false
  let running: Promise<void> | undefined
  let lastMove = Number.NEGATIVE_INFINITY
  const move = async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await bumpEpoch(kv, name)
      } catch (e) {
        if (attempt >= ANNOUNCE_ATTEMPTS) throw e
        await new Promise((r) => setTimeout(r, 50 * attempt))
      }
    }
  }
  // Set by settle(): the batch's writes are done, so the last move need not wait for the spacing.
  let finishing = false
  let wake: (() => void) | undefined
  const loop = async () => {
    await Promise.resolve() // announcements of the same tick share the first move
    while (asked) {
      // A timer counts from the event loop's cached time, which lags the clock by however long
      // the current turn has run, so it may fire a few ms early on a busy machine: wait again
      // for what is left, so two moves are never closer than the spacing.
      for (let wait = lastMove + spacingMs - Date.now(); wait > 0 && !finishing; ) {
        await new Promise<void>((r) => {
          const timer = setTimeout(r, wait)
          wake = () => {
            clearTimeout(timer)
            r()
          }
        })
        wait = lastMove + spacingMs - Date.now()
      }
      wake = undefined
      asked = false
      lastMove = Date.now()
      await move()
    }
  }
  return {
    announce() {
      asked = true
      if (running) return
      running = loop().finally(() => {
        running = undefined
      })
      running.catch(() => undefined)
    },
    async settle() {
      finishing = true
      wake?.()
      while (running) await running
    },
  }
}
