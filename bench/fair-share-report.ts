/**
 * The fair-share phase's part of the report (bench/fair-share.ts): for the hub in this process and
 * for npm start's (the users' path), the quiet token's GET latency alone and while the noisy token
 * holds its watches and writes, against the p90 target, and what the hub admitted of the noise;
 * and the same as JSON. Figures only: the target is printed, never asserted.
 */
import type { FairShareResults } from './fair-share.ts'
import { round, type Summary } from './stats.ts'
import { fmt, formatTable } from './table.ts'

const row = (what: string, s: Summary) => [
  what,
  s.count,
  fmt(s.p50),
  fmt(s.p90),
  fmt(s.p99),
  fmt(s.max),
]

/** Both runs of the phase; npmStart is null when --skip-npm-start left it out. */
export type FairSharePair = { inProcess: FairShareResults; npmStart: FairShareResults | null }

function renderOne(path: string, r: FairShareResults): string {
  const verdict = r.loaded.p90 < r.targetP90Ms ? 'within' : 'OVER'
  return [
    path,
    formatTable(
      ['quiet token', 'n', 'p50', 'p90', 'p99', 'max'],
      [row('alone', r.alone), row('under the noise', r.loaded)]
    ),
    `noisy token: ${r.watchesOpen} of ${r.watchesAsked} watches open (${r.watchesRefused} answered 429), ` +
      `${r.writes} writes (${r.writesRefused} answered 429)`,
    `target: quiet p90 under the noise < ${r.targetP90Ms} ms: ${fmt(r.loaded.p90)} ms (${verdict})`,
  ].join('\n')
}

export function renderFairShare(r: FairSharePair | null): string {
  if (!r) return '7. Fair share: skipped (--fair-watches 0)'
  return [
    "7. Fair share (one token's watches and writes; another token's GET latency, ms)",
    renderOne('the hub in this process:', r.inProcess),
    r.npmStart
      ? renderOne("through npm start (https front, wrangler dev's Worker):", r.npmStart)
      : 'through npm start: skipped (--skip-fair-npm-start)',
  ].join('\n')
}

const summaryJson = (s: Summary) => ({
  count: s.count,
  p50: round(s.p50, 2),
  p90: round(s.p90, 2),
  p99: round(s.p99, 2),
  max: round(s.max, 2),
})

function oneJson(r: FairShareResults) {
  return {
    watchesAsked: r.watchesAsked,
    watchesOpen: r.watchesOpen,
    watchesRefused: r.watchesRefused,
    writes: r.writes,
    writesRefused: r.writesRefused,
    aloneMs: summaryJson(r.alone),
    loadedMs: summaryJson(r.loaded),
    targetP90Ms: r.targetP90Ms,
  }
}

export function fairShareJson(r: FairSharePair | null) {
  if (!r) return null
  return { inProcess: oneJson(r.inProcess), npmStart: r.npmStart ? oneJson(r.npmStart) : null }
}
