/**
 * The per-token fair share of the hub's API (lib/quota/token-limiter.ts), as hono middleware run
 * after authentication: every request of a non-admin principal (users and edge credentials;
 * admins are exempt, as kube's APF exempts system:masters) takes a seat of its token's flow for as
 * long as it runs, a watch for as long as its stream is open (released when the stream ends or the
 * client goes away). Past a bound the answer is kube's 429 TooManyRequests Status with
 * `Retry-After` (lib/errors.ts), before anything is read. A watch's events are charged to its
 * token's event rate (`pace`, read by the watch loop: past the rate the token's watches wait). The limiter is the app's: one per
 * isolate or process (docs/architecture/hub.md, "Fair share", says what that bounds).
 */
import type { Context, Next } from 'hono'
import type { Principal } from '../../lib/auth/tokens.ts'
import { tooManyRequests } from '../../lib/errors.ts'
import { parseRequestPath, splitClusterPrefix } from '../../lib/kube/request-path.ts'
import type { Refusal, TokenLimiter } from '../../lib/quota/token-limiter.ts'
import type { ApiEnv } from './api-env.ts'
import { parseQuery } from './query.ts'

/** The flow a principal's requests share. */
export const flowKey = (p: Principal) => `${p.kind}:${p.token ?? p.name}`

/** Whether the request opens a watch (a collection GET with watch=true, or a legacy watch path). */
export function isWatchRequest(method: string, url: URL): boolean {
  if (method !== 'GET') return false
  const path = parseRequestPath(splitClusterPrefix(url.pathname).rest)
  if (path.kind !== 'resource') return false
  if (path.watch) return true
  if (path.name !== undefined) return false
  try {
    return parseQuery(url).watch === true
  } catch {
    return false // the dispatch answers the bad query
  }
}

function refused(p: Principal, r: Refusal) {
  const what =
    r.bound === 'watches'
      ? 'watches open'
      : r.bound === 'requests'
        ? 'requests in flight'
        : 'requests per second'
  return tooManyRequests(
    `Too many requests, please try again later: ${p.kind} "${p.name}" is at its bound of ${what}`,
    r.retryAfterSeconds
  )
}

/** A body that calls `done` once, when it ends, fails or is cancelled. */
function releasingBody(body: ReadableStream<Uint8Array>, done: () => void) {
  const reader = body.getReader()
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: end, value } = await reader.read()
        if (end) {
          done()
          controller.close()
        } else controller.enqueue(value)
      } catch (e) {
        done()
        controller.error(e)
      }
    },
    async cancel(reason) {
      done()
      await reader.cancel(reason)
    },
  })
}

export function fairShare(limiter: TokenLimiter) {
  return async function fairShareOf(c: Context<ApiEnv>, next: Next): Promise<void> {
    const principal = c.get('principal')
    if (principal.kind === 'admin') return next()
    const watch = isWatchRequest(c.req.method, c.get('url'))
    const flow = flowKey(principal)
    const seat = limiter.admit(flow, watch)
    if (!seat.ok) throw refused(principal, seat)
    if (watch) c.set('pace', (events: number) => limiter.charge(flow, events))
    try {
      await next()
    } catch (e) {
      seat.release()
      throw e
    }
    const body = c.res.body
    if (!watch || !body || c.res.status !== 200) {
      seat.release()
      return
    }
    c.res = new Response(releasingBody(body, seat.release), c.res)
  }
}
