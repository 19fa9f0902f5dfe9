import { describe, expect, it } from 'vitest'
import {
  parseRetryAfter,
  RETRY_AFTER_MAX_MS,
  retryAfterMemory,
  retryAfterOf,
} from '../../../lib/edge-agent/retry-after.ts'

const NOW = Date.parse('2030-01-01T00:00:00Z')

describe('Retry-After', () => {
  it('reads delay-seconds and HTTP dates', () => {
    expect(parseRetryAfter('120', NOW)).toBe(120_000)
    expect(parseRetryAfter(' 0 ', NOW)).toBe(0)
    expect(parseRetryAfter('Tue, 01 Jan 2030 00:00:30 GMT', NOW)).toBe(30_000)
    expect(parseRetryAfter('Mon, 31 Dec 2029 23:00:00 GMT', NOW)).toBe(0)
  })

  it('caps what it reads and ignores what it cannot', () => {
    expect(parseRetryAfter('999999', NOW)).toBe(RETRY_AFTER_MAX_MS)
    for (const bad of [undefined, null, '', '-5', '1.5', 'soon', '2030-01-01', 'Foo, bar'])
      expect(parseRetryAfter(bad, NOW)).toBeUndefined()
  })

  it('is read from 429 and 503 answers only', () => {
    const with_ = (status: number) =>
      new Response(null, { status, headers: { 'retry-after': '7' } })
    expect(retryAfterOf(with_(429), NOW)).toBe(7000)
    expect(retryAfterOf(with_(503), NOW)).toBe(7000)
    expect(retryAfterOf(with_(500), NOW)).toBeUndefined()
  })

  it('hands the last wait noted over once', () => {
    const m = retryAfterMemory()
    expect(m.take()).toBeUndefined()
    m.note(5)
    m.note(9)
    expect(m.take()).toBe(9)
    expect(m.take()).toBeUndefined()
  })
})
