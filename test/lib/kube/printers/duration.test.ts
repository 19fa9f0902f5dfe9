import { describe, expect, it } from 'vitest'
import { humanDuration, parseTime, since } from '../../../../lib/kube/printers/duration.ts'

const S = 1000
const M = 60 * S
const H = 60 * M
const D = 24 * H

describe('humanDuration', () => {
  it.each([
    [-3 * S, '<invalid>'],
    [-1500, '0s'],
    [0, '0s'],
    [59 * S, '59s'],
    [119 * S, '119s'],
    [2 * M, '2m'],
    [3 * M + 20 * S, '3m20s'],
    [9 * M + 59 * S, '9m59s'],
    [10 * M + 30 * S, '10m'],
    [179 * M, '179m'],
    [3 * H, '3h'],
    [5 * H + 7 * M, '5h7m'],
    [8 * H + 30 * M, '8h'],
    [47 * H, '47h'],
    [2 * D, '2d'],
    [3 * D + 4 * H, '3d4h'],
    [8 * D + 5 * H, '8d'],
    [400 * D, '400d'],
    [730 * D, '2y'],
    [3 * 365 * D + 10 * D, '3y10d'],
    [9 * 365 * D + 40 * D, '9y'],
  ])('%i ms reads %s', (ms, want) => {
    expect(humanDuration(ms)).toBe(want)
  })
})

describe('since and parseTime', () => {
  const now = new Date('2025-03-01T12:00:00Z')
  it('ages an RFC 3339 timestamp', () => {
    expect(since('2025-03-01T11:55:00Z', now)).toBe('5m')
    expect(since('2025-02-27T12:00:00Z', now)).toBe('2d')
  })
  it('says <unknown> without a usable timestamp', () => {
    expect(since(undefined, now)).toBe('<unknown>')
    expect(since('', now)).toBe('<unknown>')
    expect(since('yesterday', now)).toBe('<unknown>')
    expect(parseTime(42)).toBeUndefined()
  })
})
