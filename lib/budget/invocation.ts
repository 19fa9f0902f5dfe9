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
 */
import type { Logger } from '../log.ts'
import { BudgetExceeded } from './budget-exceeded.ts'
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

export type InvocationStats = {
  kind: string
  subrequests: number
  /** Subrequests by operation (`PutItem`, `Query`, `fetch`, ...). */
  ops: Record<string, number>
  /** The most requests that were in flight at once. */
  maxInFlight: number
  budget: number
  exceeded: boolean
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

  /** Counts one subrequest about to be sent; throws BudgetExceeded past the budget if strict. */
  charge(op: string): void {
    if (this.subrequests + 1 > this.budget) {
      if (!this.exceeded) {
        this.exceeded = true
        const fields = { kind: this.kind, budget: this.budget, ops: { ...this.ops } }
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
      wallMs: (this.endedAt ?? Date.now()) - this.startedAt,
      ...(this.cpuMs !== undefined ? { cpuMs: this.cpuMs } : {}),
    }
  }
}
