/**
 * Go's RFC 3339 parse errors as metav1.Time reports them: the element that does not parse, the
 * field out of range, extra text; nothing for times Go accepts (zones, fractions, leap days).
 */
import { describe, expect, it } from 'vitest'
import { rfc3339ParseError } from '../../../lib/kube/go-time-parse.ts'

const AS = 'as "2006-01-02T15:04:05Z07:00"'

describe('rfc3339ParseError', () => {
  it.for([
    '2024-02-29T23:59:59Z',
    '2030-05-06T07:08:09+02:00',
    '2030-05-06T07:08:09.123456Z',
    '2030-05-06T7:08:09-11:30',
  ])('accepts %s', (v) => {
    expect(rfc3339ParseError(v)).toBeUndefined()
  })

  it.for([
    ['yesterday', `parsing time "yesterday" ${AS}: cannot parse "yesterday" as "2006"`],
    ['2024', `parsing time "2024" ${AS}: cannot parse "" as "-"`],
    [
      '2024-1-02T00:00:00Z',
      `parsing time "2024-1-02T00:00:00Z" ${AS}: cannot parse "1-02T00:00:00Z" as "01"`,
    ],
    ['2024-13-01T00:00:00Z', 'parsing time "2024-13-01T00:00:00Z": month out of range'],
    ['2023-02-29T00:00:00Z', 'parsing time "2023-02-29T00:00:00Z": day out of range'],
    ['2024-01-01T24:00:00Z', 'parsing time "2024-01-01T24:00:00Z": hour out of range'],
    [
      '2024-01-01T00:00:00',
      `parsing time "2024-01-01T00:00:00" ${AS}: cannot parse "" as "Z07:00"`,
    ],
    ['2024-01-01T00:00:00Zand', 'parsing time "2024-01-01T00:00:00Zand": extra text: "and"'],
    [
      '2024-01-01 00:00:00Z',
      `parsing time "2024-01-01 00:00:00Z" ${AS}: cannot parse " 00:00:00Z" as "T"`,
    ],
  ])('refuses %s', ([v, msg]) => {
    expect(rfc3339ParseError(v!)).toBe(msg)
  })
})
