import { describe, expect, it } from 'vitest'
import {
  appliedWait,
  PREFER_MAX_LENGTH,
  parseAppliedWait,
  parsePreferWait,
} from '../../../lib/edge/prefer-wait.ts'

describe('parsePreferWait', () => {
  it('reads wait=N, bare or quoted, in any case, among other preferences', () => {
    expect(parsePreferWait('wait=300')).toBe(300)
    expect(parsePreferWait('WAIT=5')).toBe(5)
    expect(parsePreferWait('wait="12"')).toBe(12)
    expect(parsePreferWait('respond-async, wait=10')).toBe(10)
    expect(parsePreferWait(' return=minimal ;foo=bar , wait = 7 ')).toBe(7)
    expect(parsePreferWait('wait=0')).toBe(0)
  })

  it('takes only the first wait', () => {
    expect(parsePreferWait('wait=10, wait=20')).toBe(10)
  })

  it('is undefined without a header or without wait', () => {
    expect(parsePreferWait(undefined)).toBeUndefined()
    expect(parsePreferWait(null)).toBeUndefined()
    expect(parsePreferWait('')).toBeUndefined()
    expect(parsePreferWait('respond-async')).toBeUndefined()
    expect(parsePreferWait('waiting=10')).toBeUndefined()
  })

  it.each([
    'wait=-1',
    'wait=+5',
    'wait=1.5',
    'wait=0x10',
    'wait=1e3',
    'wait=',
    'wait',
    'wait="',
    'wait="5',
    'wait="5"6"',
    'wait=5 5',
    'wait==5',
    'wait=12345678901',
    'wa it=5',
    '=5',
    'wait=5;=x',
    'wait=\u00a05',
    'wait=٣',
    'foo bar, wait=5',
  ])('ignores the hostile or malformed %j', (header) => {
    expect(parsePreferWait(header)).toBeUndefined()
  })

  it('ignores a header past its length limit, however it ends', () => {
    const long = `${' '.repeat(PREFER_MAX_LENGTH)}wait=5`
    expect(parsePreferWait(long)).toBeUndefined()
    expect(parsePreferWait(`${'a,'.repeat(400)}wait=5`)).toBe(5)
  })

  it('words and reads the answer header', () => {
    expect(appliedWait(300)).toBe('wait=300')
    expect(parseAppliedWait(appliedWait(42))).toBe(42)
    expect(parseAppliedWait(null)).toBeUndefined()
  })
})
