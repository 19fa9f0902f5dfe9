/**
 * The copy states the dashboard shows, worst first (the API's order): each with its word, the
 * symbol drawn in a cell (so color is never the only signal) and a chip element. A stale edge's
 * copies are `stale` (grey, unknown), never failed.
 */
import { h } from './dom.js'
import { compact } from './format.js'

export const STATES = ['failed', 'stale', 'removing', 'pending', 'applied', 'ready']

const META = {
  failed: { word: 'failed', symbol: '!' },
  stale: { word: 'stale', symbol: 'S' },
  removing: { word: 'removing', symbol: '−' },
  pending: { word: 'pending', symbol: 'P' },
  applied: { word: 'applied', symbol: 'A' },
  ready: { word: 'ready', symbol: '✓' },
  none: { word: 'no objects', symbol: '·' },
}

/** The state's name for attributes: one of STATES, or "none" (no copies). */
export const stateOf = (s) => (s && Object.hasOwn(META, s) ? s : 'none')

export const stateWord = (s) => META[stateOf(s)].word
export const stateSymbol = (s) => META[stateOf(s)].symbol

/** A colored chip with the state's symbol and, unless `short`, its word. */
export function chip(state, short = false) {
  const s = stateOf(state)
  return h(
    'span',
    { class: `chip s-${s}`, title: short ? META[s].word : undefined },
    h('span', { class: 'chip-sym', 'aria-hidden': 'true' }, META[s].symbol),
    short ? h('span', { class: 'sr-only' }, META[s].word) : h('span', null, META[s].word)
  )
}

/** "30 ready · 2 failed · 3 stale" from a counts object, worst first, zeros left out. */
export function countsText(counts) {
  const parts = STATES.filter((s) => counts?.[s] > 0).map((s) => `${counts[s]} ${s}`)
  return parts.join(' · ') || 'no copies'
}

/** Compact per-state counts, worst first, zeros left out: "!101 S957 ✓28k" (a title each). */
export function tallies(counts) {
  return h(
    'span',
    { class: 'tallies' },
    STATES.filter((s) => counts?.[s] > 0).map((s) =>
      h(
        'span',
        { class: `tally t-${s}`, title: `${counts[s]} ${s}` },
        h('span', { 'aria-hidden': 'true' }, META[s].symbol),
        compact(counts[s]),
        h('span', { class: 'sr-only' }, ` ${s}`)
      )
    )
  )
}
