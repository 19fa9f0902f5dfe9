/** The Workers-limits section: one row per kind, the phase's findings, and the same as JSON. */
import { describe, expect, it } from 'vitest'
import type { KindSummary } from '../../bench/invocation-log.ts'
import type { LimitsResults } from '../../bench/limits.ts'
import { limitsJson, renderLimits } from '../../bench/limits-report.ts'

const kinds: KindSummary[] = [
  {
    kind: 'hook:translate',
    invocations: 4,
    budget: 1000,
    subrequests: { max: 812, p50: 790, p99: 812 },
    cpuMs: { max: 1234.5, p50: 300.25, p99: 1234.5, measured: 4 },
    wallMs: { p50: 900, p99: 1500 },
    maxInFlight: 6,
    exceeded: 0,
    overInWrites: 0,
    refused: 7,
  },
  {
    kind: 'api',
    invocations: 10,
    budget: 1000,
    subrequests: { max: 4, p50: 1, p99: 4 },
    cpuMs: null,
    wallMs: { p50: 2, p99: Number.NaN },
    maxInFlight: 2,
    exceeded: 0,
    overInWrites: 0,
    refused: 0,
  },
]

const limits: LimitsResults = {
  targets: 600,
  objects: 10,
  translate: {
    step: 'translate',
    keys: 600,
    calls: 9,
    rounds: 1,
    retried: 0,
    deferred: 1400,
    abandoned: [],
    elapsedMs: 1,
  },
  budgetWatch: {
    budget: 60,
    share: 45,
    subrequests: 44,
    events: 30,
    last: 'BOOKMARK',
    endedByHub: true,
    wallMs: 5000,
  },
}

describe('renderLimits', () => {
  it('has a row per kind and the phase findings', () => {
    const text = renderLimits(kinds, limits)
    expect(text).toContain('7. Workers limits')
    expect(text).toMatch(/hook:translate\s+4\s+812\s+790\s+812\s+1000\s+1235\s+300\.3\s+1235/)
    expect(text).toMatch(/hook:translate(\s+\S+){11}\s+0\s+0\s+7/)
    expect(text).toMatch(/api\s+10\s+4\s+1\s+4\s+1000\s+-\s+-\s+-/)
    expect(text).toContain('600 keys in 9 hook calls of up to 500 keys (1400 deferred')
    expect(text).toContain('ended by the hub after 44 subrequests (share 45), last event BOOKMARK')
  })

  it('says when the phase was skipped, and renders JSON without NaN', () => {
    expect(renderLimits(kinds, null)).toContain('skipped (--skip-limits)')
    const json = JSON.parse(JSON.stringify(limitsJson(kinds, limits)))
    expect(json.kinds[1].wallMs).toEqual({ p50: 2, p99: null })
    expect(json.kinds[0].cpuMs).toEqual({ max: 1234.5, p50: 300.25, p99: 1234.5, measured: 4 })
    expect(json.phase.translate).toEqual({ keys: 600, calls: 9, deferred: 1400 })
    expect(limitsJson(kinds, null).phase).toBeNull()
  })
})
