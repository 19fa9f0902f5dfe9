/**
 * The metadata keys the placement steps share: the label every mailbox copy carries, the
 * annotation the summarize step keeps on workload objects in the center (never sent to the edge),
 * and kcp's "system" keys (`kcp.io/...`, `<something>.kcp.io/...`, but not the edge API's
 * `edge.kcp.io/...`), which are the center's business and never travel to or from the edge.
 */

/** On every mailbox copy: `edge.kcp.io/projected=yes`. */
export const PROJECTED_LABEL = 'edge.kcp.io/projected'

/** On a workload object: how many destinations run it (its copy applied or ready there). */
export const EXECUTING_COUNT_ANNOTATION = 'kubestellar.io/executing-count'

/** kcp's keys: `kcp.io/...` or `<something>.kcp.io/...`, but not the edge API's `edge.kcp.io/...`. */
export function isSystemKey(key: string): boolean {
  if (key.startsWith('edge.kcp.io/')) return false
  return key.startsWith('kcp.io/') || key.includes('.kcp.io/')
}
