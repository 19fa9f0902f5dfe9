/**
 * Why Go's `time.Parse(time.RFC3339, s)` refuses a string, in Go's own words — the message kube
 * answers when a body's `metav1.Time` (creationTimestamp, a managedFields entry's time) does not
 * parse: `parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as
 * "2006"`, or `parsing time "…": month out of range`. It walks the layout's elements as Go's
 * parser does (year, month, day, hour, minute, second with an optional fraction, zone) and
 * reports the first that fails; `undefined` when the string parses.
 */
import { goQuote } from './go-quote.ts'

const LAYOUT = '2006-01-02T15:04:05Z07:00'

const isDigit = (s: string, i: number) => i < s.length && s[i]! >= '0' && s[i]! <= '9'

/** Go's getnum: one or two digits (two when `fixed`); null when it fails. */
function getnum(s: string, fixed: boolean): { n: number; rest: string } | null {
  if (!isDigit(s, 0)) return null
  if (!isDigit(s, 1)) return fixed ? null : { n: Number(s[0]), rest: s.slice(1) }
  return { n: Number(s.slice(0, 2)), rest: s.slice(2) }
}

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28
  return [4, 6, 9, 11].includes(month) ? 30 : 31
}

type Step = { prefix: string; elem: string }
const STEPS: Step[] = [
  { prefix: '', elem: '2006' },
  { prefix: '-', elem: '01' },
  { prefix: '-', elem: '02' },
  { prefix: 'T', elem: '15' },
  { prefix: ':', elem: '04' },
  { prefix: ':', elem: '05' },
  { prefix: '', elem: 'Z07:00' },
]

/** The zone element: `Z`, or `±hh:mm`; the rest, a range error, or null when malformed. */
function zone(value: string): { rest: string; range?: string } | null {
  if (value.startsWith('Z')) return { rest: value.slice(1) }
  if (value.length < 6 || value[3] !== ':') return null
  const hr = getnum(value.slice(1, 3), true)
  const mm = getnum(value.slice(4, 6), true)
  if (!hr || !mm || (value[0] !== '+' && value[0] !== '-')) return null
  const range = hr.n > 24 ? 'time zone offset hour' : mm.n > 60 ? 'time zone offset minute' : ''
  return { rest: value.slice(6), ...(range ? { range } : {}) }
}

/** One element: what is left after it, the range it broke (a Go range error) or null (bad). */
function element(
  elem: string,
  value: string,
  fields: { month: number; day: number; year: number }
): { rest: string; range?: string } | null {
  if (elem === '2006') {
    if (value.length < 4 || !isDigit(value, 0) || !/^\d{4}$/.test(value.slice(0, 4))) return null
    fields.year = Number(value.slice(0, 4))
    return { rest: value.slice(4) }
  }
  if (elem === 'Z07:00') return zone(value)
  const got = getnum(value, elem !== '15')
  if (!got) return null
  const limits: Record<string, [string, number, number]> = {
    '01': ['month', 1, 12],
    '02': ['', 0, 99],
    '15': ['hour', 0, 23],
    '04': ['minute', 0, 59],
    '05': ['second', 0, 59],
  }
  const [range, lo, hi] = limits[elem] ?? ['', 0, 99]
  if (elem === '01') fields.month = got.n
  if (elem === '02') fields.day = got.n
  if (range && (got.n < lo || got.n > hi)) return { rest: got.rest, range }
  let rest = got.rest
  // A fraction after the seconds, which the layout does not name, is taken as Go takes it.
  if (elem === '05' && rest.length >= 2 && (rest[0] === '.' || rest[0] === ',') && isDigit(rest, 1))
    rest = rest.replace(/^[.,]\d+/, '')
  return { rest }
}

/** Go's error for `value` under RFC 3339, or undefined when it parses. */
export function rfc3339ParseError(value: string): string | undefined {
  const head = `parsing time ${goQuote(value)}`
  const fields = { month: 0, day: 0, year: 0 }
  let rest = value
  for (const { prefix, elem } of STEPS) {
    if (!rest.startsWith(prefix))
      return `${head} as ${goQuote(LAYOUT)}: cannot parse ${goQuote(rest)} as ${goQuote(prefix)}`
    rest = rest.slice(prefix.length)
    const got = element(elem, rest, fields)
    if (!got)
      return `${head} as ${goQuote(LAYOUT)}: cannot parse ${goQuote(rest)} as ${goQuote(elem)}`
    if (got.range) return `${head}: ${got.range} out of range`
    rest = got.rest
  }
  if (rest !== '') return `${head}: extra text: ${goQuote(rest)}`
  if (fields.day < 1 || fields.day > daysIn(fields.month, fields.year))
    return `${head}: day out of range`
  return undefined
}
