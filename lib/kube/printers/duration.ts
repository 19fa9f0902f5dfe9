/**
 * Human-readable ages as kube prints them server-side: `humanDuration` follows the rules of
 * apimachinery's `duration.HumanDuration` (seconds below two minutes, then minutes with seconds
 * below ten minutes, hours with minutes below eight hours, days with hours below eight days, years
 * with days below eight years; up to two seconds in the future still reads as "0s"), and `since`
 * applies it to an RFC 3339 timestamp, giving "<unknown>" when there is none.
 */

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE

const whole = (n: number) => Math.trunc(n)

/** `12h`, `3m20s`, `5d2h`... for a duration in milliseconds. */
export function humanDuration(ms: number): string {
  const seconds = whole(ms / SECOND)
  if (seconds < -1) return '<invalid>'
  if (seconds < 0) return '0s'
  if (seconds < 120) return `${seconds}s`
  const minutes = whole(ms / MINUTE)
  if (minutes < 10) {
    const s = seconds % 60
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`
  }
  if (minutes < 180) return `${minutes}m`
  return longDuration(whole(ms / HOUR), minutes)
}

function longDuration(hours: number, minutes: number): string {
  const days = whole(hours / 24)
  if (hours < 8) {
    const m = minutes % 60
    return m === 0 ? `${hours}h` : `${hours}h${m}m`
  }
  if (hours < 48) return `${hours}h`
  if (hours < 24 * 8) {
    const h = hours % 24
    return h === 0 ? `${days}d` : `${days}d${h}h`
  }
  if (hours < 24 * 365 * 2) return `${days}d`
  const years = whole(days / 365)
  if (hours < 24 * 365 * 8) {
    const d = days % 365
    return d === 0 ? `${years}y` : `${years}y${d}d`
  }
  return `${years}y`
}

/** Milliseconds of an RFC 3339 timestamp, or undefined when absent or unparsable. */
export function parseTime(value: unknown): number | undefined {
  if (typeof value !== 'string' || value === '') return undefined
  const t = Date.parse(value)
  return Number.isNaN(t) ? undefined : t
}

/** The age of `timestamp` at `now` ("<unknown>" without a timestamp), like kube's AGE cells. */
export function since(timestamp: unknown, now: Date): string {
  const t = parseTime(timestamp)
  return t === undefined ? '<unknown>' : humanDuration(now.getTime() - t)
}
