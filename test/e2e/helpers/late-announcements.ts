/**
 * Watch events without the store's late announcements: a write whose change-log entry landed late
 * is announced once more at a fresh resourceVersion, unchanged (docs/architecture/storage.md,
 * "Watch and the ordering of late writes"), so a loaded machine may show a MODIFIED carrying what
 * the event before it did. `contentOf` picks what a change would change (say, a ConfigMap's data).
 * Returns the events left and how many were dropped.
 */
export function withoutLateAnnouncements<E extends { type: string }>(
  events: readonly E[],
  contentOf: (e: E) => unknown
): { events: E[]; dropped: number } {
  const kept = events.filter((e, i) => {
    const before = events[i - 1]
    return !(
      e.type === 'MODIFIED' &&
      before !== undefined &&
      JSON.stringify(contentOf(e)) === JSON.stringify(contentOf(before))
    )
  })
  return { events: kept, dropped: events.length - kept.length }
}
