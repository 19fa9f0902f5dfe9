import { describe, expect, it } from 'vitest'
import { createPollHealth } from '../../../lib/edge-agent/agent-health.ts'

const clock = () => {
  const c = { ms: 1_000_000, now: () => c.ms }
  return c
}

describe('createPollHealth', () => {
  it('is live while polls start or finish within the stall window', () => {
    const c = clock()
    const h = createPollHealth({ intervalMs: 1000, stallMs: 60_000, now: c.now })
    expect(h.live()).toEqual({ ok: true })
    c.ms += 60_000
    expect(h.live()).toEqual({ ok: true })
    c.ms += 1
    expect(h.live()).toEqual({ ok: false, reason: 'no poll has started for 60 s' })
    h.started()
    expect(h.live()).toEqual({ ok: true })
    c.ms += 120_000
    expect(h.live()).toEqual({ ok: false, reason: 'the current poll has been running for 120 s' })
    h.finished({ ok: false, outcome: 'offline', error: 'ECONNREFUSED' })
    expect(h.live()).toEqual({ ok: true })
  })

  it('defaults the stall window to the backoff cap plus ten minutes', () => {
    const c = clock()
    const h = createPollHealth({ intervalMs: 15_000, now: c.now })
    c.ms += 8 * 15_000 + 600_000
    expect(h.live().ok).toBe(true)
    c.ms += 1
    expect(h.live().ok).toBe(false)
  })

  it('is ready once a poll finished and the last one succeeded', () => {
    const h = createPollHealth({ intervalMs: 1000 })
    expect(h.ready()).toEqual({ ok: false, reason: 'no poll has finished yet' })
    h.started()
    h.finished({ ok: true, outcome: 'applied' })
    expect(h.ready()).toEqual({ ok: true })
    h.finished({ ok: false, outcome: 'center-error', error: 'GET desired: HTTP 401' })
    expect(h.ready()).toEqual({
      ok: false,
      reason: 'the last poll failed (center-error): GET desired: HTTP 401',
    })
    h.finished({ ok: true, outcome: 'unchanged' })
    expect(h.ready()).toEqual({ ok: true })
  })
})
