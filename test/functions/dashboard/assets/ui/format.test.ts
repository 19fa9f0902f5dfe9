/**
 * How the edges view and the edge panel word an agent's polls (functions/dashboard/assets/ui/
 * format.js `pollText`, `pollTitle`, no DOM in them) over items shaped as the edges API's: held
 * with the hold it asks, plain with its interval (by choice, or asking holds the center did not
 * apply), the interval alone from an agent that does not say its mode, nothing from one that says
 * nothing.
 */
import { describe, expect, it } from 'vitest'

// Loaded by path: the page's modules are plain JavaScript, without type declarations.
const MODULE = '../../../../../functions/dashboard/assets/ui/format.js'
const { pollText, pollTitle } = await import(MODULE)

const item = (extra = {}) => ({
  pollIntervalSeconds: 15,
  pollMode: null,
  holdSeconds: null,
  lastPoll: null,
  ...extra,
})

describe('an edge’s polls, in words', () => {
  it('says held with the hold, plain with the interval', () => {
    const held = item({ pollMode: 'held', holdSeconds: 300 })
    expect(pollText(held)).toBe('held 300 s')
    expect(pollTitle(held)).toBe('held polls of up to 300 s, its copy every 15 s')
    const plain = item({ pollMode: 'plain', holdSeconds: 0 })
    expect(pollText(plain)).toBe('plain 15 s')
    expect(pollTitle(plain)).toBe('plain polls, its copy every 15 s, by choice (no hold asked)')
    const fellBack = item({ pollMode: 'plain', holdSeconds: 300, pollIntervalSeconds: 0.5 })
    expect(pollText(fellBack)).toBe('plain 0.5 s')
    expect(pollTitle(fellBack)).toContain('it asks holds of 300 s, its last poll was not held')
  })

  it('says the interval alone from an older agent, nothing from a silent one', () => {
    expect(pollText(item())).toBe('15 s')
    expect(pollTitle(item())).toContain('poll mode unknown')
    const silent = item({ pollIntervalSeconds: null })
    expect(pollText(silent)).toBeNull()
    expect(pollTitle(silent)).toContain('unknown')
  })
})
