/**
 * A watch's changes one at a time, without the store's late announcements: a write whose
 * change-log entry landed `settleMs` or more after its rv was issued is announced again at a fresh
 * rv (lib/store/late-entries.ts) — an object written again unchanged (a MODIFIED carrying what the
 * watcher last saw of it) or a deletion logged again (a second DELETED). A busy machine makes
 * them; a watcher loses nothing by them. An announcement is told by content (the object without
 * its resourceVersion), so a real change is never skipped. test/e2e/helpers/late-announcements.ts
 * does the same for a list of events already read.
 */
import type { NdjsonReader } from './ndjson-reader.ts'

type Event = { type: string; object: { metadata: { name?: string; resourceVersion?: string } } }

const content = (o: Event['object']) =>
  JSON.stringify({ ...o, metadata: { ...o.metadata, resourceVersion: undefined } })

export type ChangeReader = {
  /** The next event that is not a late announcement (undefined when the stream ended). */
  next(): Promise<any>
  /** How many announcements were skipped so far. */
  skipped(): number
  close(): Promise<void>
}

/** Reads `w`; `seen` are events (say, a list's or the initial events) the watcher already holds. */
export function changeReader(w: NdjsonReader, seen: readonly Event[] = []): ChangeReader {
  const last = new Map<string, { type: string; content: string }>()
  const note = (e: Event) => {
    const name = e.object?.metadata?.name
    if (name !== undefined) last.set(name, { type: e.type, content: content(e.object) })
  }
  for (const e of seen) note(e)
  let skipped = 0
  const isAnnouncement = (e: Event) => {
    const before = last.get(e.object?.metadata?.name ?? '')
    if (!before) return false
    if (e.type === 'DELETED') return before.type === 'DELETED'
    return (
      e.type === 'MODIFIED' && before.type !== 'DELETED' && before.content === content(e.object)
    )
  }
  return {
    async next() {
      for (;;) {
        const e = (await w.next()) as Event | undefined
        if (e === undefined || e.type === 'BOOKMARK' || e.type === 'ERROR') return e
        if (isAnnouncement(e)) {
          skipped++
          continue
        }
        note(e)
        return e
      }
    },
    skipped: () => skipped,
    close: () => w.close(),
  }
}
