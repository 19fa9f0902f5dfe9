/**
 * The metadata keys the placement steps share: the label every mailbox copy carries, the
 * annotations the summarize step keeps on workload objects in the center (never sent to the edge),
 * and kcp's "system" keys (`kcp.io/...`, `<something>.kcp.io/...`, but not the edge API's
 * `edge.kcp.io/...`), which are the center's business and never travel to or from the edge. Which
 * of a source's label and annotation keys a copy carries is decided here (`travels`), for the
 * projection and the merge of several sources alike.
 */

/** On every mailbox copy: `edge.kcp.io/projected=yes`. */
export const PROJECTED_LABEL = 'edge.kcp.io/projected'

/** On a workload object: how many destinations run it (its copy applied or ready there). */
export const EXECUTING_COUNT_ANNOTATION = 'kubestellar.io/executing-count'

/**
 * On a workload object of a kind with a status: how many of its selected edges its status is
 * from (`2/3 (1 stale)`), or `not aggregated` for a kind whose status is not aggregated over
 * several edges (lib/summarize/multi-edge-status.ts); the EDGES column at the center prints it.
 */
export const STATUS_FROM_ANNOTATION = 'edge.kcp.io/status-from'

/** kcp's keys: `kcp.io/...` or `<something>.kcp.io/...`, but not the edge API's `edge.kcp.io/...`. */
export function isSystemKey(key: string): boolean {
  if (key.startsWith('edge.kcp.io/')) return false
  return key.startsWith('kcp.io/') || key.includes('.kcp.io/')
}

/**
 * Keys the center keeps on workload objects for their readers there, never sent to the edge: the
 * summarize step's executing count and status source change as edges report, and copying them
 * would rewrite every mailbox of the object at each change.
 */
const CENTER_ONLY_KEYS: ReadonlySet<string> = new Set([
  EXECUTING_COUNT_ANNOTATION,
  STATUS_FROM_ANNOTATION,
])

/** Whether a copy takes this label or annotation key from its source: not kcp's, not center-only. */
export const travels = (key: string): boolean => !isSystemKey(key) && !CENTER_ONLY_KEYS.has(key)

/** The entries of a source's labels or annotations a copy takes; undefined when none. */
export function travelling(
  map: Readonly<Record<string, string>> | undefined
): Record<string, string> | undefined {
  const out = Object.entries(map ?? {}).filter(([k]) => travels(k))
  return out.length > 0 ? Object.fromEntries(out) : undefined
}
