/**
 * The report of the propagation run to real agents through npm start
 * (bench/npm-start-edges-report.ts): the held polls' p99 as `npmStartHeldPropagationP99Ms`
 * against 2 s and the plain polls' beside it against one interval + 2 s, both at the agent count;
 * null values (never a made-up figure) when the run was left out or measured nothing; the text
 * lines put both modes side by side with each change's p99.
 */
import { describe, expect, it } from 'vitest'
import type { NpmStartEdges, NpmStartEdgesMode } from '../../bench/npm-start-edges.ts'
import { npmStartEdgesGoals, renderNpmStartEdges } from '../../bench/npm-start-edges-report.ts'
import { summarize } from '../../bench/stats.ts'

const mode = (holdSeconds: number, perChange: number[][]): NpmStartEdgesMode => ({
  mode: holdSeconds > 0 ? 'held' : 'plain',
  holdSeconds,
  agentsReadyMs: 30_000,
  changes: perChange.map((l) => ({ writeMs: 40, latencyMs: summarize(l), missing: 0 })),
  latencyMs: summarize(perChange.flat()),
  missing: 0,
  polls: { polls: 100, unchanged: 90, applied: 10, failed: 1 },
  requests: { desired: 30, held: 12, reports: 3, failed: 2 },
})

const run: NpmStartEdges = {
  agents: 20,
  intervalMs: 15_000,
  setupMs: { register: 1200, bootstrap: 3400, place: 500 },
  plain: mode(0, [
    [1000, 7000.4, 14_000],
    [2000, 9000],
  ]),
  held: mode(300, [
    [300, 410.6],
    [350, 900],
  ]),
}

describe('npm start propagation report', () => {
  it('reads the held and plain p99 with their targets at the agent count', () => {
    expect(npmStartEdgesGoals(run)).toEqual({
      npmStartHeldPropagationP99Ms: { value: 900, target: 2000, edges: 20 },
      npmStartPlainPropagationP99Ms: { value: 14_000, target: 18_500, edges: 20 },
    })
  })

  it('gives null values when left out or when nothing was measured', () => {
    expect(npmStartEdgesGoals(null)).toEqual({
      npmStartHeldPropagationP99Ms: { value: null, target: 2000, edges: null },
      npmStartPlainPropagationP99Ms: { value: null, target: 18_500, edges: null },
    })
    const empty = { ...run, held: mode(300, []) }
    expect(npmStartEdgesGoals(empty).npmStartHeldPropagationP99Ms?.value).toBeNull()
    expect(renderNpmStartEdges(null)).toEqual([])
  })

  it('renders both modes side by side, with each change', () => {
    const text = renderNpmStartEdges(run).join('\n')
    expect(text).toContain('20 real agents, plain interval 15000 ms, 2 changes per mode')
    expect(text).toContain('bootstrap 3.4 s')
    expect(text).toMatch(/plain\s+p50 7000 ms, p99 14000 ms, max 14000 ms, missing 0/)
    expect(text).toMatch(/held \(wait=300 s\)\s+p50 350 ms, p99 900 ms, max 900 ms/)
    expect(text).toContain('per change p99 14000, 9000 ms')
    expect(text).toContain('per change p99 411, 900 ms')
    expect(text).toContain(
      '1 failed polls; 30 desired + 12 held requests over the changes, 2 failed'
    )
  })
})
