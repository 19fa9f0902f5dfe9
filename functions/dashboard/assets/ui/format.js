/**
 * Formatting shared by the views: the server clock (ages are measured against the `now` the API
 * sends, shifted by the client's clock so they move every second), the hub's staleness threshold
 * (`staleAfterMs` of the same answers: the page words stale edges with the server's rule, never
 * one of its own), "12 s ago" ages, counts with thousands separators, labels as `k=v` text,
 * objects as pretty JSON and how an edge's agent polls ("held 300 s", "plain 15 s").
 */

let offsetMs = 0
let staleAfter = 180_000

/** Records the server's clock from an answer's `now` (epoch ms) and its staleness threshold. */
export function setServerNow(now, staleAfterMs) {
  if (typeof now === 'number' && Number.isFinite(now)) offsetMs = now - Date.now()
  if (typeof staleAfterMs === 'number' && staleAfterMs > 0) staleAfter = staleAfterMs
}

/** The staleness threshold as the server said it: "3 min", "30 s". */
export function staleAfterText() {
  const s = Math.round(staleAfter / 1000)
  return s < 60 || s % 60 !== 0 ? `${s} s` : `${s / 60} min`
}

/** The server's clock now, as the client best knows it. */
export const serverNow = () => Date.now() + offsetMs

/** How long ago `ms` (epoch ms) was on the server's clock: "12 s ago", "5 min ago", "never". */
export function age(ms) {
  if (ms === null || ms === undefined) return 'never'
  const s = Math.max(0, Math.floor((serverNow() - ms) / 1000))
  if (s < 60) return `${s} s ago`
  if (s < 3600) return `${Math.floor(s / 60)} min ago`
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`
  return `${Math.floor(s / 86400)} d ago`
}

/** "last seen 12 s ago" or "never seen". */
export const lastSeenText = (ms) =>
  ms === null || ms === undefined ? 'never seen' : `last seen ${age(ms)}`

const numbers = new Intl.NumberFormat('en-US')

/** 10000 → "10,000". */
export const count = (n) => numbers.format(n ?? 0)

/** 950 → "950", 1234 → "1.2k", 28257 → "28k", 1.5e6 → "1.5M". */
export function compact(n) {
  if (n < 1000) return String(n)
  if (n < 10_000) return `${(n / 1000).toFixed(1).replace(/\.0$/, '')}k`
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`
}

/** "1 object", "4 objects"; "1 copy", "2 copies" with the plural given. */
export const plural = (n, word, many = `${word}s`) => `${count(n)} ${n === 1 ? word : many}`

/** `{env: "prod"}` → ["env=prod"]. */
export const labelPairs = (labels) => Object.entries(labels ?? {}).map(([k, v]) => `${k}=${v}`)

/** Labels one per line (for titles), or "no labels". */
export const labelsText = (labels) => labelPairs(labels).join('\n') || 'no labels'

/** Pretty JSON, or "null" when there is nothing. */
export const pretty = (value) => JSON.stringify(value ?? null, null, 2)

/**
 * How an edge's agent polls, from the edges API's item: "held 300 s" (its last poll held by the
 * center, the hold it asks), "plain 15 s" (a plain poll, its interval), "15 s" from an agent that
 * does not say its mode, null when it said nothing.
 */
export function pollText(e) {
  const every = e.pollIntervalSeconds === null ? null : `${e.pollIntervalSeconds} s`
  if (e.pollMode === 'held') return `held ${e.holdSeconds ?? '?'} s`
  if (e.pollMode === 'plain') return every === null ? 'plain' : `plain ${every}`
  return every
}

/** The longer word of pollText, for a title or the edge panel. */
export function pollTitle(e) {
  const every = e.pollIntervalSeconds === null ? '' : `, its copy every ${e.pollIntervalSeconds} s`
  if (e.pollMode === 'held') return `held polls of up to ${e.holdSeconds} s${every}`
  if (e.pollMode === 'plain')
    return e.holdSeconds
      ? `plain polls${every}: it asks holds of ${e.holdSeconds} s, its last poll was not held`
      : `plain polls${every}, by choice (no hold asked)`
  if (e.pollIntervalSeconds !== null)
    return `every ${e.pollIntervalSeconds} s; poll mode unknown (an agent that does not say it)`
  return 'unknown: the agent said nothing of its polls'
}

/** `namespace/name` or `name`. */
export const nsName = (o) => (o.namespace ? `${o.namespace}/${o.name}` : o.name)

/** `deployments.apps` or `configmaps`. */
export const groupResource = (o) => (o.group ? `${o.resource}.${o.group}` : o.resource)

/** Updates every `.age[data-seen]` under `root` (they show "12 s ago" and move each second). */
export function tickAges(root) {
  for (const el of root.querySelectorAll('.age[data-seen]')) {
    const seen = el.dataset.seen
    el.textContent = seen ? age(Number(seen)) : 'never'
  }
}
