/**
 * One invocation's budget and what it has used: subrequests (every DynamoDB request attempt and
 * every outgoing fetch, by operation), requests in flight (gated by a semaphore of the connection
 * limit), wall time and, when cpu-accounting.ts is on, CPU time. The context (frames.ts) carries
 * it through every await of the request, so concurrent invocations in one isolate count apart.
 *
 * Going past the budget is logged once per invocation at error level ("subrequest budget
 * exceeded") and recorded (violations.ts); in `strict` mode (tests, the local stack) the
 * subrequest is refused with BudgetExceeded, in `degrade` mode (production) it is sent, since the
 * work splitting should have deferred before and the platform itself decides.
 *
 * Reservations (reservation.ts): a write reserves, before it sends anything, the subrequests it
 * and its change-log entry need; `reserve` refuses (BudgetRefused, in both modes) when they do not
 * fit beside those already used and reserved. A subrequest sent within a reservation draws on it;
 * any other must fit beside the reservations of others, so a write once started always has room to
 * log itself. Refusals are counted (`refused`), not violations: nothing was cut.
 */
import type { Logger } from '../log.ts'
import { BudgetExceeded, BudgetRefused } from './budget-exceeded.ts'
import { cpuAccountingOn } from './cpu-accounting.ts'
import { DEFAULT_BUDGET, SHARES } from './limits.ts'
import { createSemaphore, type Semaphore } from './semaphore.ts'
import { recordViolation } from './violations.ts'

export type BudgetMode = 'strict' | 'degrade'

export type BudgetConfig = {
  /** Subrequests allowed (default 1,000). */
  subrequests?: number
  /** Outgoing requests in flight at once (default 6). */
  connections?: number
  /** `strict` refuses a subrequest past the budget; `degrade` (default) logs it and sends it. */
  mode?: BudgetMode
  log?: Logger
  /** Called once when the invocation ends, with its figures (the bench collects them). */
  onEnd?: (stats: InvocationStats) => void
}

/** Subrequests promised to one write in progress and not yet sent. */
export type Reservation = { left: number }

export type InvocationStats = {
  kind: string
  subrequests: number
  /** Subrequests by operation (`PutItem`, `Query`, `fetch`, ...). */
  ops: Record<string, number>
  /** The most requests that were in flight at once. */
  maxInFlight: number
  budget: number
  exceeded: boolean
  /** Writes refused before they sent anything, for want of room to reserve (reservation.ts). */
  refused: number
  /** Subrequests past the budget that a write in progress sent (within a reservation): 0 by design. */
  overInWrites: number
  wallMs: number
  /** CPU time attributed to this invocation; only while cpu-accounting.ts is enabled. */
  cpuMs?: number
}

export class Invocation {
  /** What ran: `api`, `watch`, `hook:<step>`, `edge-poll`, `edge`, `cron` (request-kind.ts). */
  kind: string
  readonly budget: number
  readonly mode: BudgetMode
  readonly slots: Semaphore
  subrequests = 0
  inFlight = 0
  maxInFlight = 0
  exceeded = false
  /** Subrequests reserved by writes in progress and not yet sent. */
  reserved = 0
  refused = 0
  overInWrites = 0
  cpuMs: number | undefined
  readonly ops: Record<string, number> = {}
  private readonly startedAt = Date.now()
  private endedAt: number | undefined
  private holds = 1
  private readonly config: BudgetConfig

  constructor(kind: string, config: BudgetConfig = {}) {
    this.kind = kind
    this.budget = Math.max(1, Math.floor(config.subrequests ?? DEFAULT_BUDGET.subrequests))
    this.mode = config.mode ?? 'degrade'
    this.slots = createSemaphore(config.connections ?? DEFAULT_BUDGET.connections)
    this.config = config
    this.cpuMs = cpuAccountingOn() ? 0 : undefined
  }

  /** Subrequests left before the budget. */
  remaining(): number {
    return Math.max(0, this.budget - this.subrequests)
  }

  /** The subrequest count at `fraction` of the budget (a share, limits.ts SHARES). */
  shareAt(fraction: number = SHARES.default): number {
    return Math.floor(this.budget * fraction)
  }

  /**
   * Reserves `cost` subrequests for a write about to start, or refuses it (BudgetRefused) when they
   * do not fit beside those used and reserved already.
   */
  reserve(cost: number): Reservation {
    const need = Math.max(0, Math.ceil(cost))
    if (this.subrequests + this.reserved + need > this.budget) {
      this.refused++
      throw new BudgetRefused(this.kind, this.budget, need)
    }
    this.reserved += need
    return { left: need }
  }

  /** Gives back what `r` did not use. */
  settle(r: Reservation): void {
    this.reserved -= r.left
    r.left = 0
  }

  /**
   * Counts one subrequest about to be sent, drawing on the first of `from` with room; throws
   * BudgetExceeded past the budget (beside others' reservations when it draws on none) if strict.
   */
  charge(op: string, from: readonly Reservation[] = []): void {
    const drawn = from.find((r) => r.left > 0)
    if (drawn) {
      drawn.left--
      this.reserved--
    }
    if (this.subrequests + 1 + (drawn ? 0 : this.reserved) > this.budget) {
      const inWrite = from.length > 0
      if (inWrite) this.overInWrites++
      // The first overrun is logged, and the first one a write sent (its log entry at risk).
      if (!this.exceeded || (inWrite && this.overInWrites === 1)) {
        this.exceeded = true
        const fields = { kind: this.kind, budget: this.budget, op, inWrite, ops: { ...this.ops } }
        this.config.log?.error('subrequest budget exceeded', fields)
        recordViolation({ ...fields, mode: this.mode })
      }
      if (this.mode === 'strict') throw new BudgetExceeded(this.kind, this.budget)
    }
    this.subrequests++
    this.ops[op] = (this.ops[op] ?? 0) + 1
  }

  /** Keeps the invocation open past its handler (a streamed body); call the result when done. */
  hold(): () => void {
    this.holds++
    let released = false
    return () => {
      if (released) return
      released = true
      this.release()
    }
  }

  /** Ends the hold of the handler itself (runInvocation does this). */
  release(): void {
    if (--this.holds > 0 || this.endedAt !== undefined) return
    this.endedAt = Date.now()
    this.config.onEnd?.(this.stats())
  }

  stats(): InvocationStats {
    return {
      kind: this.kind,
      subrequests: this.subrequests,
      ops: { ...this.ops },
      maxInFlight: this.maxInFlight,
      budget: this.budget,
      exceeded: this.exceeded,
      refused: this.refused,
      overInWrites: this.overInWrites,
      wallMs: (this.endedAt ?? Date.now()) - this.startedAt,
      ...(this.cpuMs !== undefined ? { cpuMs: this.cpuMs } : {}),
    }
  }
}
