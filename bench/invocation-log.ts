/**
 * The Worker-limits figures of the benchmark: every invocation the bench's hubs ran (one per
 * request, lib/budget/; the cron's runs too) is recorded when it ends, and summarized per kind —
 * `hook:<step>`, `watch`, `cron`, `edge-poll`, `edge`, `api` — as the count, subrequests (max,
 * p50, p99), CPU ms (the same, over the invocations that ran while CPU accounting was on), wall ms
 * (p50, p99), the most requests in flight at once, how many went past their budget, how many of
 * those overruns a write in progress sent (reservation.ts makes it 0), and the writes refused
 * before they sent anything (work deferred to a later invocation instead of overrunning).
 */
import type { InvocationStats } from '../lib/budget/invocation.ts'
import { percentile } from './stats.ts'

export type Spread = { max: number; p50: number; p99: number }

export type KindSummary = {
  kind: string
  invocations: number
  budget: number
  subrequests: Spread
  /** Over the invocations with a CPU figure; null when none had one. */
  cpuMs: (Spread & { measured: number }) | null
  wallMs: { p50: number; p99: number }
  maxInFlight: number
  exceeded: number
  /** Invocations with an overrun sent by a write in progress (its log entry at risk). */
  overInWrites: number
  /** Writes refused before sending anything, summed over the invocations. */
  refused: number
}

export type InvocationLog = {
  record(stats: InvocationStats): void
  all(): InvocationStats[]
  clear(): void
}

export function createInvocationLog(): InvocationLog {
  let seen: InvocationStats[] = []
  return {
    record: (s) => {
      seen.push(s)
    },
    all: () => [...seen],
    clear: () => {
      seen = []
    },
  }
}

function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b)
  return {
    max: sorted[sorted.length - 1] ?? Number.NaN,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
  }
}

/** One summary per kind, kinds in name order. */
export function summarizeByKind(all: readonly InvocationStats[]): KindSummary[] {
  const byKind = new Map<string, InvocationStats[]>()
  for (const s of all) {
    const list = byKind.get(s.kind)
    if (list) list.push(s)
    else byKind.set(s.kind, [s])
  }
  return [...byKind.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([kind, list]) => {
      const cpu = list.flatMap((s) => (s.cpuMs === undefined ? [] : [s.cpuMs]))
      const wall = spread(list.map((s) => s.wallMs))
      return {
        kind,
        invocations: list.length,
        budget: Math.max(...list.map((s) => s.budget)),
        subrequests: spread(list.map((s) => s.subrequests)),
        cpuMs: cpu.length > 0 ? { ...spread(cpu), measured: cpu.length } : null,
        wallMs: { p50: wall.p50, p99: wall.p99 },
        maxInFlight: Math.max(...list.map((s) => s.maxInFlight)),
        exceeded: list.filter((s) => s.exceeded).length,
        overInWrites: list.filter((s) => (s.overInWrites ?? 0) > 0).length,
        refused: list.reduce((sum, s) => sum + (s.refused ?? 0), 0),
      }
    })
}
