/**
 * Per-token fair share of one isolate or process, in the spirit of kube's API Priority and
 * Fairness (each flow gets its seats; past them a request is 429 with Retry-After): for every
 * key (one token's principal) at most `requests` requests and `watches` watches in flight at
 * once, and requests started at no more than `ratePerSecond` on average (a bucket of `burst`);
 * and the events its watches are handed at no more than `eventsPerSecond` (a bucket of
 * `eventBurst`): a watch is the cheapest thing to ask for and the dearest to serve — one write
 * into a collection fifty watches follow is fifty events to encode and stream — so past its rate a
 * token's watches wait before they poll again (`charge`), lagging behind the log by what they took
 * too much, while every other token's requests keep their share of the isolate. A refusal says which bound and after how many seconds to try again (the bucket's refill time;
 * 1 s for a bound of things in flight, as APF answers).
 *
 * Pure but for the injected clock (ms), so tests drive time; one limiter per app (never held by a
 * module). What it bounds is what this isolate serves: a Worker runs many isolates, and a token
 * spread across them gets these bounds in each (docs/architecture/hub.md, "Fair share"). Keys
 * idle with a full bucket are forgotten past MAX_KEYS.
 */

export type TokenLimits = {
  /** Requests (not watches) of one token in flight at once. */
  requests: number
  /** Watches of one token open at once. */
  watches: number
  /** Requests of one token started per second on average (watches included). */
  ratePerSecond: number
  /** How many may start at once after a quiet spell. */
  burst: number
  /**
   * Watch events handed to one token's watches per second on average: past it, its watches wait
   * before their next poll (they fall behind, nobody else does).
   */
  eventsPerSecond: number
  /** How many events its watches may take at once after a quiet spell. */
  eventBurst: number
}

export const DEFAULT_TOKEN_LIMITS: TokenLimits = {
  requests: 16,
  watches: 50,
  ratePerSecond: 200,
  burst: 400,
  eventsPerSecond: 250,
  eventBurst: 500,
}

export type Refusal = { bound: 'requests' | 'watches' | 'rate'; retryAfterSeconds: number }
export type Admission = { ok: true; release: () => void } | ({ ok: false } & Refusal)

export type TokenLimiter = {
  /** Admits one request (`watch` false) or watch of `key`, or says why not. */
  admit(key: string, watch: boolean): Admission
  /** What `key` has in flight now. */
  inFlight(key: string): { requests: number; watches: number }
  /**
   * Charges `events` delivered to a watch of `key`; answers how long (ms) that watch waits before
   * it polls again so the token stays within its event rate (0 while it is).
   */
  charge(key: string, events: number): number
}

const MAX_KEYS = 10_000

type Flow = { requests: number; watches: number; tokens: number; events: number; at: number }

export function createTokenLimiter(limits: TokenLimits, now: () => number): TokenLimiter {
  const flows = new Map<string, Flow>()
  const refill = (f: Flow, t: number) => {
    if (t > f.at) {
      const s = (t - f.at) / 1000
      f.tokens = Math.min(limits.burst, f.tokens + s * limits.ratePerSecond)
      f.events = Math.min(limits.eventBurst, f.events + s * limits.eventsPerSecond)
    }
    f.at = Math.max(f.at, t)
  }
  const flowOf = (key: string, t: number): Flow => {
    let f = flows.get(key)
    if (!f) {
      if (flows.size >= MAX_KEYS) prune(t)
      f = { requests: 0, watches: 0, tokens: limits.burst, events: limits.eventBurst, at: t }
      flows.set(key, f)
    }
    refill(f, t)
    return f
  }
  const prune = (t: number) => {
    for (const [key, f] of flows) {
      refill(f, t)
      const rested = f.tokens >= limits.burst && f.events >= limits.eventBurst
      if (f.requests === 0 && f.watches === 0 && rested) flows.delete(key)
    }
  }
  return {
    admit(key, watch) {
      const f = flowOf(key, now())
      if (watch ? f.watches >= limits.watches : f.requests >= limits.requests)
        return { ok: false, bound: watch ? 'watches' : 'requests', retryAfterSeconds: 1 }
      if (f.tokens < 1) {
        const wait = Math.ceil((1 - f.tokens) / limits.ratePerSecond)
        return { ok: false, bound: 'rate', retryAfterSeconds: Math.max(1, wait) }
      }
      f.tokens -= 1
      if (watch) f.watches++
      else f.requests++
      let done = false
      return {
        ok: true,
        release: () => {
          if (done) return
          done = true
          if (watch) f.watches--
          else f.requests--
        },
      }
    },
    inFlight(key) {
      const f = flows.get(key)
      return { requests: f?.requests ?? 0, watches: f?.watches ?? 0 }
    },
    charge(key, events) {
      if (events <= 0) return 0
      const f = flowOf(key, now())
      f.events -= events
      return f.events >= 0 ? 0 : Math.ceil((-f.events / limits.eventsPerSecond) * 1000)
    },
  }
}
