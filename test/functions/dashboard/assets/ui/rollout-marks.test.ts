/**
 * The matrix's Rollout rules (functions/dashboard/assets/ui/rollout-marks.js, a browser module
 * with no DOM in it) over answers shaped as the API's: a cell's revision text from the revisions
 * the API read; marked behind when older than its edge's wave's revision (the completed one for
 * a wave not promoted, or an edge no wave takes), held when the edge is not due that revision yet
 * (maxEdges), never behind before the Rollout is adopted; the wave marks numbered in the
 * Rollout's order; the summary and the panels' wording.
 */
import { describe, expect, it } from 'vitest'

// Loaded by path: the page's modules are plain JavaScript, without type declarations.
const MODULE = '../../../../../functions/dashboard/assets/ui/rollout-marks.js'
const { byName, cellMarks, edgeWaves, panelWaveText, revisionText, rolloutSummary, waveRevision } =
  await import(MODULE)

const wave = (name: string, extra = {}) => ({
  name,
  approval: false,
  edges: 2,
  ready: 0,
  failed: 0,
  stale: 0,
  pending: 2,
  ...extra,
})
const SHOP = {
  name: 'shop',
  phase: 'Progressing',
  revision: 3,
  completedRevision: 2,
  currentWave: 'canary',
  paused: false,
  waves: [wave('canary', { revision: 3, from: 2, cut: 0.5 }), wave('rest')],
}
const rollouts = byName([SHOP])
const row = { name: 'all', rollouts: ['shop'] }
const edge = (w: string | null, due?: number) => ({
  key: 'mb',
  syncTarget: 'c1',
  rollouts: { shop: { wave: w, ...(due !== undefined ? { due } : {}) } },
})
const cell = (lowest: number | null, highest = lowest, unstamped = 0) => ({
  worst: 'ready',
  counts: {},
  revisions: { shop: { lowest, highest, objects: 2, unstamped } },
})

describe('the matrix’s Rollout marks', () => {
  it('words a cell’s revisions as read', () => {
    expect(revisionText({ lowest: 2, highest: 2 })).toBe('r2')
    expect(revisionText({ lowest: 1, highest: 2 })).toBe('r1–2')
    expect(revisionText({ lowest: null, highest: null })).toBe('—')
  })

  it('takes the wave’s revision, or the completed one', () => {
    expect(waveRevision(SHOP, 'canary')).toBe(3)
    expect(waveRevision(SHOP, 'rest')).toBe(2)
    expect(waveRevision(SHOP, null)).toBe(2)
  })

  it('marks a cell older than its wave’s revision, and tells the cut apart', () => {
    const [up] = cellMarks(rollouts, row, edge('canary', 3), cell(3))
    expect(up).toMatchObject({ text: 'r3', behind: false, held: false })
    const [late] = cellMarks(rollouts, row, edge('canary', 3), cell(2))
    expect(late).toMatchObject({ text: 'r2', behind: true, held: false })
    expect(late.title).toContain('older than its wave')
    const [turn] = cellMarks(rollouts, row, edge('canary', 2), cell(2))
    expect(turn).toMatchObject({ behind: true, held: true })
    expect(turn.title).toContain('maxEdges')
    const [mixed] = cellMarks(rollouts, row, edge('canary', 3), cell(2, 3))
    expect(mixed).toMatchObject({ text: 'r2–3', behind: true })
    const [rest] = cellMarks(rollouts, row, edge('rest', 2), cell(2))
    expect(rest).toMatchObject({ behind: false })
    const [none] = cellMarks(rollouts, row, edge('canary', 3), cell(null, null, 2))
    expect(none).toMatchObject({ text: '—', behind: true })
  })

  it('marks nothing behind before the Rollout is adopted, nor rows it does not govern', () => {
    const fresh = byName([{ ...SHOP, revision: undefined, completedRevision: undefined }])
    const [m] = cellMarks(fresh, row, edge('canary'), cell(null, null, 2))
    expect(m).toMatchObject({ text: '—', behind: false })
    expect(cellMarks(rollouts, { name: 'other', rollouts: [] }, edge('canary'), cell(2))).toEqual(
      []
    )
  })

  it('numbers an edge’s wave in the Rollout’s order', () => {
    expect(edgeWaves(rollouts, ['shop'], edge('rest', 2))).toEqual([
      expect.objectContaining({ rollout: 'shop', index: 2, wave: 'rest' }),
    ])
    const [none] = edgeWaves(rollouts, ['shop'], edge(null, 2))
    expect(none).toMatchObject({ index: 0, wave: null })
    expect(none.title).toContain('no wave')
    const [held] = edgeWaves(rollouts, ['shop'], edge('canary', 2))
    expect(held.title).toBe('Rollout shop: wave 1 canary at r3, due r2')
    expect(edgeWaves(rollouts, [], edge('rest'))).toEqual([])
  })

  it('sums a Rollout up and words an edge’s waves for the panels', () => {
    expect(rolloutSummary(SHOP)).toBe('r3 in flight at wave canary · completed r2 · Progressing')
    expect(rolloutSummary({ ...SHOP, revision: 2, phase: 'Complete' })).toBe(
      'completed r2 · Complete'
    )
    expect(rolloutSummary({ name: 'x', waves: [] })).toContain('not adopted yet')
    expect(rolloutSummary({ name: 'x', waves: [], invalid: 'spec.waves: bad' })).toBe(
      'invalid: spec.waves: bad'
    )
    expect(panelWaveText([SHOP], edge('rest'))).toBe('shop: wave 2 rest')
    expect(panelWaveText([SHOP], edge(null))).toBe('shop: no wave')
    expect(panelWaveText([SHOP], { key: 'mb' })).toBe('')
  })
})
