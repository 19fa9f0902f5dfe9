/**
 * Storm control for the edge API (docs/SCALING.md §3): one process or isolate counts the edge
 * requests it is working on, and past `limit` sheds the next one at once — before anything is
 * read — telling the agent to come back after a jittered `Retry-After`, so an overloaded center
 * does not load itself further (a heartbeat answered after 30 s lets a lease go stale; a stale
 * lease makes the next beat a dearer return). A held poll parked on its bell (lib/edge/bell.ts)
 * costs nothing while it waits: its ticket is `park`ed then and counted again (`resume`) while it
 * builds its answer, never shed then.
 *
 * The wait asked is SHED_BASE_SECONDS plus a random share of a window that starts at
 * SHED_SPREAD_SECONDS and grows with the pressure — the requests shed in the current and the
 * previous second, per unit of the limit — capped so that the whole wait is at most
 * SHED_MAX_SECONDS: a few shed agents come back within seconds, a fleet-wide storm is spread
 * over half a minute (still well inside an edge's staleness threshold). kube-apiserver's
 * max-in-flight filter answers the same 429 with a fixed `Retry-After: 1`.
 *
 * Limit 0 turns shedding off (every request admitted). Randomness and the clock are injected.
 * `admit` also says, at most once per second, how many were shed since it last said (`report`),
 * for the one log line the caller writes.
 */

/** The least wait asked of a shed agent, seconds. */
export const SHED_BASE_SECONDS = 1
/** The random window above it at the least pressure, seconds. */
export const SHED_SPREAD_SECONDS = 4
/** The longest wait asked, seconds. */
export const SHED_MAX_SECONDS = 30

/** Edge requests a Worker isolate works on at once before it sheds (EDGE_MAX_IN_FLIGHT). */
export const WORKER_MAX_IN_FLIGHT = 64
/** The same for the Node hub, one process serving the whole fleet. */
export const NODE_MAX_IN_FLIGHT = 512

/**
 * The Retry-After (whole seconds) for a request shed by a process whose `limit` saw `shedRecently`
 * requests shed in the current and previous second: in [SHED_BASE_SECONDS, SHED_MAX_SECONDS].
 */
export function shedRetryAfter(limit: number, shedRecently: number, random: () => number): number {
  const pressure = Math.max(0, shedRecently) / Math.max(1, limit)
  const window = Math.min(
    SHED_MAX_SECONDS - SHED_BASE_SECONDS,
    Math.floor(SHED_SPREAD_SECONDS * (1 + pressure))
  )
  const share = Math.floor(Math.min(0.999_999, Math.max(0, random())) * (window + 1))
  return SHED_BASE_SECONDS + share
}

/** A request at work: `release` once answered; `park`/`resume` around a wait that costs nothing. */
export type AdmissionTicket = {
  park(): void
  resume(): void
  release(): void
}

export type Admitted = { ok: true; ticket: AdmissionTicket }

export type Shed = {
  ok: false
  retryAfterSeconds: number
  inFlight: number
  limit: number
  /** Set at most once per second: the requests shed since the last report, this one included. */
  report?: { shed: number }
}

export type EdgeAdmission = {
  /** The configured limit (0: off). */
  readonly limit: number
  admit(): Admitted | Shed
  /** Requests counted as in work now (parked ones not). */
  inFlight(): number
}

export type AdmissionOptions = {
  /** Requests in work at once; 0 turns shedding off. */
  limit: number
  random?: () => number
  /** Milliseconds clock (the per-second pressure and report). */
  now?: () => number
}

export function createEdgeAdmission(o: AdmissionOptions): EdgeAdmission {
  const random = o.random ?? Math.random
  const now = o.now ?? Date.now
  let inFlight = 0
  // Sheds per second: the current second's and the previous one's.
  let second = Number.NEGATIVE_INFINITY
  let thisSecond = 0
  let lastSecond = 0
  let unreported = 0
  let reportedAt = Number.NEGATIVE_INFINITY

  const ticket = (): AdmissionTicket => {
    let counted = true
    let done = false
    const drop = () => {
      if (counted) inFlight--
      counted = false
    }
    return {
      park: drop,
      resume() {
        if (done || counted) return
        inFlight++
        counted = true
      },
      release() {
        drop()
        done = true
      },
    }
  }

  const shed = (): Shed => {
    const t = now()
    const s = Math.floor(t / 1000)
    if (s !== second) {
      lastSecond = s === second + 1 ? thisSecond : 0
      thisSecond = 0
      second = s
    }
    thisSecond++
    unreported++
    const out: Shed = {
      ok: false,
      retryAfterSeconds: shedRetryAfter(o.limit, thisSecond + lastSecond, random),
      inFlight,
      limit: o.limit,
    }
    if (t - reportedAt >= 1000) {
      out.report = { shed: unreported }
      unreported = 0
      reportedAt = t
    }
    return out
  }

  return {
    limit: o.limit,
    admit() {
      if (o.limit > 0 && inFlight >= o.limit) return shed()
      inFlight++
      return { ok: true, ticket: ticket() }
    },
    inFlight: () => inFlight,
  }
}
