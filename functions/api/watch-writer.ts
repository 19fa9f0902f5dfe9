/**
 * The bytes of a watch stream: one JSON line per event (kube's watch framing), written a batch at
 * a time — the events of one poll of the change log, the initial events, a bookmark — as one chunk
 * (split past CHUNK_CHARS), instead of one chunk per event. Each chunk crosses every stream between
 * the Worker and the client (wrangler's proxy and the local https front, or the platform's edge),
 * and at a busy collection a chunk per event cost more than the events themselves: fifty watches
 * of a namespace taking a hundred writes a second were 5,000 chunks a second. A client reads the
 * same lines either way: kube's decoders split on newlines, never on chunks.
 */
const CHUNK_CHARS = 64 * 1024

export type EventWriter = {
  /** Adds one event's line to the batch (written at once when the batch is full). */
  emit(event: unknown): void
  /** Writes the batch, if any. */
  flush(): void
}

export function createEventWriter(
  enqueue: (chunk: Uint8Array) => void,
  transform?: (event: unknown) => unknown
): EventWriter {
  const enc = new TextEncoder()
  let lines: string[] = []
  let size = 0
  const flush = () => {
    if (lines.length === 0) return
    const chunk = enc.encode(lines.join(''))
    lines = []
    size = 0
    enqueue(chunk)
  }
  return {
    emit(event) {
      const line = `${JSON.stringify(transform ? transform(event) : event)}\n`
      lines.push(line)
      size += line.length
      if (size >= CHUNK_CHARS) flush()
    },
    flush,
  }
}
