/**
 * The benchmark's own idle poll of the edge API: `GET /edge/v1/mailboxes/<m>/desired` with the
 * mailbox's bearer token and `If-None-Match` naming the version it holds, over the remote client
 * the agent's center client uses (lib/remote/remote-client.ts: Node's fetch, keep-alive). Anything
 * but 304 throws a RemoteError, so a broken endpoint cannot pass for a fast one. `currentEtag`
 * reads a mailbox's ETag (a 200); `answerBytes` measures a full answer's body, as sent and
 * gzip-compressed (what a compressing front end would send).
 */
import { gzipSync } from 'node:zlib'
import { EDGE_API_PREFIX } from '../lib/edge/protocol.ts'
import { createRemote, failureOf } from '../lib/remote/remote-client.ts'

export type PollTarget = { mailbox: string; token: string; etag: string }

export const desiredPath = (mailbox: string) =>
  `${EDGE_API_PREFIX}/mailboxes/${encodeURIComponent(mailbox)}/desired`

/** One unchanged poll of `baseUrl` (the hub, or the bare endpoint); throws unless 304. */
export async function pollUnchanged(baseUrl: string, t: PollTarget): Promise<void> {
  const remote = createRemote({ baseUrl, token: t.token })
  const res = await remote.send(desiredPath(t.mailbox), { headers: { 'if-none-match': t.etag } })
  if (res.status !== 304) throw await failureOf(res, `poll ${t.mailbox} (expected 304)`)
  await res.body?.cancel()
}

/** The mailbox's current ETag (a full GET, 200). */
export async function currentEtag(baseUrl: string, mailbox: string, token: string) {
  const res = await createRemote({ baseUrl, token }).send(desiredPath(mailbox))
  const etag = res.headers.get('etag')
  if (res.status !== 200 || !etag)
    throw await failureOf(res, `GET desired of ${mailbox} (etag ${etag})`)
  await res.body?.cancel()
  return etag
}

/** The body bytes of a mailbox's full desired answer (a 200), as sent and gzip-compressed. */
export async function answerBytes(baseUrl: string, mailbox: string, token: string) {
  const res = await createRemote({ baseUrl, token }).send(desiredPath(mailbox))
  if (res.status !== 200) throw await failureOf(res, `GET desired of ${mailbox}`)
  const body = new Uint8Array(await res.arrayBuffer())
  return { identity: body.length, gzip: gzipSync(body).length }
}
