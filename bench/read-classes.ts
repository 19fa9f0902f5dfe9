/**
 * The store reads of a measured window by where they went: the request counter's counts by
 * `<operation> <partition class>` (lib/store/request-class.ts), reads only, and a line naming the
 * largest of them per edge-hour, so a figure's reads can be told apart (token checks, leases,
 * SyncTargets, manifests) instead of read as one number.
 */

/** DynamoDB's read operations. */
export const READS = /^(GetItem|BatchGetItem|Query|Scan)$/

/** The read operations of counts by `<operation> <partition class>`. */
export const readsOf = (classes: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(classes).filter(([k]) => READS.test(k.split(' ')[0] ?? '')))

/** Counts scaled by `f` (per edge-hour from a window's counts). */
export const scaled = (classes: Record<string, number>, f: number): Record<string, number> =>
  Object.fromEntries(Object.entries(classes).map(([k, n]) => [k, n * f]))

/** The `top` largest classes, as `GetItem kv:tokens 6.1, …` (the rest summed as `other`). */
export function classLine(classes: Record<string, number>, top = 6): string {
  const sorted = Object.entries(classes).sort((a, b) => b[1] - a[1])
  const shown = sorted.slice(0, top).map(([k, n]) => `${k} ${n.toFixed(2)}`)
  const rest = sorted.slice(top).reduce((sum, [, n]) => sum + n, 0)
  return [...shown, ...(rest > 0 ? [`other ${rest.toFixed(2)}`] : [])].join(', ') || 'none'
}
