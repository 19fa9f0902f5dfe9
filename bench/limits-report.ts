/**
 * Section 7 of the report: Workers limits. One row per invocation kind over the whole run
 * (invocation-log.ts: subrequests max/p50/p99 against the budget, CPU ms max/p50/p99 where it was
 * measured, wall ms, most requests in flight, overruns, overruns a write sent, writes refused
 * before sending), then what the limits phase showed: the
 * translate hook's calls and deferred keys, and the watch that ended before a small budget. Also
 * the same as JSON for the summary line.
 */
import { DEFAULT_BUDGET } from '../lib/budget/limits.ts'
import type { KindSummary } from './invocation-log.ts'
import type { LimitsResults } from './limits.ts'
import { round } from './stats.ts'
import { fmt, formatTable } from './table.ts'

const HEADERS = [
  'kind',
  'n',
  'subreq max',
  'p50',
  'p99',
  'budget',
  'CPU ms max',
  'p50',
  'p99',
  'wall p50',
  'p99',
  'in flight',
  'over',
  'in writes',
  'refused',
]

function row(k: KindSummary): (string | number)[] {
  const cpu = k.cpuMs
  return [
    k.kind,
    k.invocations,
    k.subrequests.max,
    k.subrequests.p50,
    k.subrequests.p99,
    k.budget,
    cpu ? fmt(cpu.max) : '-',
    cpu ? fmt(cpu.p50) : '-',
    cpu ? fmt(cpu.p99) : '-',
    fmt(k.wallMs.p50),
    fmt(k.wallMs.p99),
    k.maxInFlight,
    k.exceeded,
    k.overInWrites,
    k.refused,
  ]
}

export function renderLimits(kinds: KindSummary[], l: LimitsResults | null): string {
  const out = [
    `7. Workers limits: per invocation (subrequests = DynamoDB request attempts; CPU measured in the limits phase only, target < ${DEFAULT_BUDGET.cpuMs} ms)`,
    formatTable(HEADERS, kinds.map(row)),
  ]
  if (!l) return [...out, '   limits phase: skipped (--skip-limits)'].join('\n')
  const t = l.translate
  const w = l.budgetWatch
  return [
    ...out,
    `   limits phase: ${l.targets} mailboxes, ${l.objects} ConfigMaps placed on all of them`,
    `   translate of every mailbox: ${t.keys} keys in ${t.calls} hook calls of up to 500 keys (${t.deferred} deferred and sent again)`,
    `   a watch on a hub with a ${w.budget}-subrequest budget: ${w.endedByHub ? 'ended by the hub' : 'did NOT end by itself'} after ${w.subrequests} subrequests (share ${w.share}), last event ${w.last ?? 'none'}, ${fmt(w.wallMs / 1000)} s`,
  ].join('\n')
}

export function limitsJson(kinds: KindSummary[], l: LimitsResults | null) {
  const spread = (s: { max: number; p50: number; p99: number }) => ({
    max: round(s.max, 2),
    p50: round(s.p50, 2),
    p99: round(s.p99, 2),
  })
  return {
    kinds: kinds.map((k) => ({
      kind: k.kind,
      invocations: k.invocations,
      budget: k.budget,
      subrequests: spread(k.subrequests),
      cpuMs: k.cpuMs ? { ...spread(k.cpuMs), measured: k.cpuMs.measured } : null,
      wallMs: { p50: round(k.wallMs.p50), p99: round(k.wallMs.p99) },
      maxInFlight: k.maxInFlight,
      exceeded: k.exceeded,
      overInWrites: k.overInWrites,
      refused: k.refused,
    })),
    phase: l
      ? {
          targets: l.targets,
          objects: l.objects,
          translate: {
            keys: l.translate.keys,
            calls: l.translate.calls,
            deferred: l.translate.deferred,
          },
          budgetWatch: { ...l.budgetWatch, wallMs: round(l.budgetWatch.wallMs) },
        }
      : null,
  }
}
