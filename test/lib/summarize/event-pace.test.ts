/** The pace of the summarize step's Events: first, repeat, wait, keep, expire. */
import { describe, expect, it } from 'vitest'
import {
  EVENT_MIN_INTERVAL_MS,
  EVENT_REPEAT_MS,
  EVENT_TTL_MS,
  isExpired,
  paceEvent,
} from '../../../lib/summarize/event-pace.ts'

const T0 = Date.parse('2030-01-01T00:00:00Z')
const seenAt = (ms: number, count = 3) => ({
  message: 'm',
  count,
  lastTimestamp: new Date(ms).toISOString(),
  metadata: {},
})

describe('paceEvent', () => {
  it('creates what was never recorded and restarts what expired', () => {
    expect(paceEvent(undefined, 'm', T0)).toEqual({ kind: 'create' })
    expect(paceEvent(seenAt(T0 - EVENT_TTL_MS), 'm', T0)).toEqual({ kind: 'restart' })
    expect(paceEvent({ message: 'm', metadata: {} }, 'm', T0)).toEqual({ kind: 'restart' })
  })

  it('keeps the same message until it is due again, then counts a repeat', () => {
    expect(paceEvent(seenAt(T0 - EVENT_REPEAT_MS + 1), 'm', T0)).toEqual({ kind: 'keep' })
    expect(paceEvent(seenAt(T0 - EVENT_REPEAT_MS), 'm', T0)).toEqual({ kind: 'repeat', count: 4 })
  })

  it('holds a new message back until a minute after the last write', () => {
    expect(paceEvent(seenAt(T0 - 15_000), 'n', T0)).toEqual({
      kind: 'wait',
      ms: EVENT_MIN_INTERVAL_MS - 15_000,
    })
    expect(paceEvent(seenAt(T0 - EVENT_MIN_INTERVAL_MS, 0), 'n', T0)).toEqual({
      kind: 'repeat',
      count: 2,
    })
  })

  it('falls back to the first timestamp and the creation time', () => {
    const created = { metadata: { creationTimestamp: new Date(T0 - 1000).toISOString() } }
    expect(isExpired(created, T0)).toBe(false)
    expect(isExpired({ firstTimestamp: 'soon', ...created }, T0)).toBe(false)
    expect(isExpired(created, T0 + EVENT_TTL_MS)).toBe(true)
  })
})
