/**
 * Durations as the token CLI reads them (`--expires`): one or more whole amounts with a unit,
 * `d` (24 h), `h`, `m` or `s`, as in Go's durations plus days: `720h`, `30d`, `1h30m`, `90s`.
 * Returns whole seconds, or an error message. Pure.
 */
const UNIT_SECONDS: Record<string, number> = { d: 86_400, h: 3600, m: 60, s: 1 }

export function parseDuration(text: string): number | string {
  const bad = `not a duration: "${text}" (use e.g. 720h, 30d, 1h30m)`
  if (!/^(\d+[dhms])+$/.test(text)) return bad
  let total = 0
  for (const m of text.matchAll(/(\d+)([dhms])/g)) {
    total += Number(m[1]) * (UNIT_SECONDS[m[2] ?? 's'] ?? 1)
  }
  if (!Number.isSafeInteger(total) || total <= 0) return bad
  return total
}

/** `30d`, `12h`, `45m`, `90s`: the largest exact unit, for messages. */
export function formatSeconds(seconds: number): string {
  for (const [unit, size] of Object.entries(UNIT_SECONDS))
    if (seconds % size === 0 && seconds >= size) return `${seconds / size}${unit}`
  return `${seconds}s`
}
