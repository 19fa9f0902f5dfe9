/**
 * Kube's wire form of a time (metav1.Time): RFC 3339 in UTC at second precision, `Z` suffixed,
 * e.g. `2030-05-06T07:08:09Z` — what kube writes in creationTimestamp, deletionTimestamp,
 * managedFields and condition times. The one formula every writer of such a time uses. Pure.
 */

/** `d` as kube writes metav1.Time: second precision (the milliseconds dropped, not rounded). */
export function timestamp(d: Date): string {
  return `${d.toISOString().slice(0, 19)}Z`
}
