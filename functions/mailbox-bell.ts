/**
 * The Worker's bell (lib/edge/bell.ts) as a Durable Object, one per shard (lib/edge/bell-shards.ts;
 * functions/mailbox-bell-client.ts calls it): its memory is an in-process bell, so a shard holds
 * the waiters of its mailboxes' held polls and the last version rung per mailbox while it runs.
 * - `POST /ring` `{"versions": [[key, version], ...]}`: rings them; 204.
 * - `GET /wait?key=K&since=V&timeoutMs=T[&also=S...]`: `{"outcome": "rung" | "timeout" |
 *   "unknown"}` once K (or an `also` key: the mailbox's shared manifest) is rung above V, or
 *   after T ms (at most MAX_WAIT_MS).
 * An object that just started remembers nothing: a ring may have gone to the instance before it
 * (between a poll's manifest read and its wait). For STARTUP_MS after it starts it therefore
 * answers `unknown` at once to the first wait of each key it knows no version of, and the poll
 * reads again; that key's next wait (its read made after this answer, so any later ring comes
 * here) is held as usual. Nothing is stored: the object's memory is all it has.
 */
import { z } from 'zod'
import { type InProcessBell, inProcessBell } from '../lib/edge/bell.ts'
import { badRequest, methodNotAllowed, notFound } from '../lib/errors.ts'
import { json } from './api/respond.ts'

/** How long a new object answers `unknown` to the first wait of each key it has no memory of. */
export const STARTUP_MS = 10_000
/** The longest wait the object accepts (over the longest hold, 370 s). */
export const MAX_WAIT_MS = 400_000

const key = z.string().min(1).max(512)
const RingSchema = z.object({
  versions: z.array(z.tuple([key, z.number().int().min(0)])).max(10_000),
})
const WaitSchema = z.object({
  key,
  also: z.array(key).max(4),
  since: z.coerce.number().int().min(0),
  timeoutMs: z.coerce.number().int().min(0).max(MAX_WAIT_MS),
})

export type BellHandlerOptions = {
  bell?: InProcessBell
  now?: () => number
  startupMs?: number
}

const invalid = (what: string, e: z.ZodError) => {
  const err = badRequest(`${what}: ${e.issues.map((i) => `${i.path.join('.')}: ${i.message}`)}`)
  return json(err.toStatus(), err.code)
}

/** The object's request handler, apart from the class so tests drive it with their clock. */
export function bellHandler(o: BellHandlerOptions = {}): (req: Request) => Promise<Response> {
  const bell = o.bell ?? inProcessBell()
  const now = o.now ?? Date.now
  const startedAt = now()
  const startupMs = o.startupMs ?? STARTUP_MS
  const answered = new Set<string>()
  const unsure = (k: string) => {
    if (now() - startedAt >= startupMs || bell.rungVersion(k) !== undefined) return false
    if (answered.has(k)) return false
    answered.add(k)
    return true
  }
  return async (req) => {
    const url = new URL(req.url)
    if (url.pathname === '/ring' && req.method === 'POST') {
      const parsed = RingSchema.safeParse(await req.json().catch(() => undefined))
      if (!parsed.success) return invalid('ring', parsed.error)
      await bell.ring(new Map(parsed.data.versions))
      return new Response(null, { status: 204 })
    }
    if (url.pathname === '/wait' && req.method === 'GET') {
      const query = Object.fromEntries(url.searchParams)
      const parsed = WaitSchema.safeParse({ ...query, also: url.searchParams.getAll('also') })
      if (!parsed.success) return invalid('wait', parsed.error)
      const { key: k, since, timeoutMs, also } = parsed.data
      if (unsure(k)) return json({ outcome: 'unknown' })
      return json({ outcome: await bell.wait(k, since, { timeoutMs, signal: req.signal, also }) })
    }
    const err =
      url.pathname === '/ring' || url.pathname === '/wait'
        ? methodNotAllowed(`${req.method} is not supported on ${url.pathname}`)
        : notFound('', { name: url.pathname })
    return json(err.toStatus(), err.code)
  }
}

/** The Durable Object class (wrangler.toml binds it as MAILBOX_BELL). */
export class MailboxBell implements DurableObject {
  private readonly handle = bellHandler()
  fetch(req: Request): Promise<Response> {
    return this.handle(req)
  }
}
