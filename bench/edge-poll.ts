/**
 * The benchmark's own idle poll of the edge API: `GET /edge/v1/mailboxes/<m>/desired` with the
 * mailbox's bearer token and `If-None-Match` naming the version it holds, over Node's fetch
 * (undici, keep-alive) — the HTTP client the agent's center client uses. Anything but 304 throws,
 * so a broken endpoint cannot pass for a fast one. `currentEtag` reads a mailbox's ETag (a 200).
 */
import { EDGE_API_PREFIX } from '../lib/edge/protocol.ts'

export type PollTarget = { mailbox: string; token: string; etag: string }

export const desiredPath = (mailbox: string) =>
  `${EDGE_API_PREFIX}/mailboxes/${encodeURIComponent(mailbox)}/desired`

/** One unchanged poll of `baseUrl` (the hub, or the bare endpoint); throws unless 304. */
export async function pollUnchanged(baseUrl: string, t: PollTarget): Promise<void> {
  const res = await fetch(`${baseUrl}${desiredPath(t.mailbox)}`, {
    headers: { authorization: `Bearer ${t.token}`, 'if-none-match': t.etag },
  })
  if (res.status !== 304) {
    const text = await res.text()
    throw new Error(`poll ${t.mailbox}: expected 304, got ${res.status}: ${text.slice(0, 300)}`)
  }
  await res.body?.cancel()
}

/** The mailbox's current ETag (a full GET, 200). */
export async function currentEtag(baseUrl: string, mailbox: string, token: string) {
  const res = await fetch(`${baseUrl}${desiredPath(mailbox)}`, {
    headers: { authorization: `Bearer ${token}` },
  })
  const text = await res.text()
  const etag = res.headers.get('etag')
  if (res.status !== 200 || !etag)
    throw new Error(
      `GET desired of ${mailbox}: ${res.status} (etag ${etag}): ${text.slice(0, 300)}`
    )
  return etag
}
