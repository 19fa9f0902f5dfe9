/**
 * The fair-share part of the bench report (bench/fair-share-report.ts): for the hub in process and
 * through npm start, both latency rows, what the hub admitted of the noise, the target with the
 * measured p90 and whether it was met; the skipped phase and the skipped npm start run; and the
 * JSON figures of both.
 */
import { describe, expect, it } from 'vitest'
import type { FairShareResults } from '../../bench/fair-share.ts'
import { fairShareJson, renderFairShare } from '../../bench/fair-share-report.ts'
import { summarize } from '../../bench/stats.ts'

const results = (loaded: number[]): FairShareResults => ({
  watchesAsked: 1500,
  watchesOpen: 100,
  watchesRefused: 1400,
  writes: 900,
  writesRefused: 12,
  alone: summarize([5, 6, 7, 8]),
  loaded: summarize(loaded),
  targetP90Ms: 200,
})

describe('the fair-share report', () => {
  it('prints both latencies, the admitted noise and the target with its verdict', () => {
    const text = renderFairShare({
      inProcess: results([10, 20, 30, 40]),
      npmStart: results([100, 300, 400, 500]),
    })
    expect(text).toContain('100 of 1500 watches open (1400 answered 429)')
    expect(text).toContain('900 writes (12 answered 429)')
    expect(text).toMatch(/alone\s+\|?\s*4/)
    const [inProcess, npmStart] = text.split('through npm start')
    expect(inProcess).toContain('the hub in this process')
    expect(inProcess).toContain('target: quiet p90 under the noise < 200 ms: 40.0 ms (within)')
    expect(npmStart).toContain('500.0 ms (OVER)')
  })

  it('says when the phase was left out, in the report and the JSON', () => {
    expect(renderFairShare(null)).toBe('7. Fair share: skipped (--fair-watches 0)')
    expect(fairShareJson(null)).toBeNull()
    const alone = { inProcess: results([10]), npmStart: null }
    expect(renderFairShare(alone)).toContain('through npm start: skipped (--skip-fair-npm-start)')
    expect(fairShareJson(alone)?.npmStart).toBeNull()
  })

  it('gives the figures as JSON', () => {
    const pair = { inProcess: results([10, 20, 30, 40]), npmStart: results([50, 60]) }
    expect(fairShareJson(pair)).toMatchObject({
      inProcess: {
        watchesOpen: 100,
        watchesRefused: 1400,
        loadedMs: { count: 4, p50: 20, p90: 40 },
        targetP90Ms: 200,
      },
      npmStart: { loadedMs: { count: 2, p90: 60 } },
    })
  })
})
