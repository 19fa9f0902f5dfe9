/**
 * The dashboard's login, kept out of URLs and logs: the browser posts the bearer token once
 * (`POST /ui/api/login`, JSON body) and gets it back as an HttpOnly, Secure, SameSite=Strict
 * cookie scoped to `/ui/api`, which the page's script cannot read and no other site's request
 * carries. Every dashboard request must also send `X-Edgeplane-UI: 1`: a cross-site form or image
 * cannot set that header, and a cross-site script would need a CORS preflight, which is never
 * granted. The cookie's token goes through the hub's own authentication (lib/auth/tokens.ts), so
 * an expired or revoked token ends the session at once; edge credentials are refused here, as they
 * are everywhere but their mailbox's edge API.
 */
import type { Context } from 'hono'
import { z } from 'zod'
import { authenticate, type Principal } from '../../lib/auth/tokens.ts'
import { badRequest, forbidden } from '../../lib/errors.ts'
import type { HubDeps } from '../../lib/hub/deps.ts'
import { readObjectBody } from '../api/body.ts'

export const SESSION_COOKIE = 'edgeplane-session'
export const UI_HEADER = 'x-edgeplane-ui'
/** A session lasts at most this long; the token's own expiry ends it sooner. */
export const SESSION_SECONDS = 12 * 3600
const COOKIE_PATH = '/ui/api'

const LoginSchema = z.object({ token: z.string().min(1).max(4096) }).strict()

/** 403 unless the request says it comes from the dashboard's own script. */
export function requireUiHeader(c: Context): void {
  if (c.req.header(UI_HEADER) !== '1')
    throw forbidden(`dashboard requests must send the header ${UI_HEADER}: 1`)
}

/** The session token of the request's cookie, if any. */
export function sessionToken(cookieHeader: string | undefined): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const at = part.indexOf('=')
    if (at < 0 || part.slice(0, at).trim() !== SESSION_COOKIE) continue
    try {
      const value = decodeURIComponent(part.slice(at + 1).trim())
      return value || undefined
    } catch {
      return undefined
    }
  }
  return undefined
}

function refuseEdges(p: Principal): Principal {
  if (p.kind === 'edge') throw forbidden(`edge credentials cannot use the dashboard`)
  return p
}

/** The principal of the request's session cookie; 401 without one or for a token no longer valid. */
export async function sessionPrincipal(deps: HubDeps, c: Context): Promise<Principal> {
  const token = sessionToken(c.req.header('cookie'))
  const header = token === undefined ? undefined : `Bearer ${token}`
  return refuseEdges(await authenticate(deps.kv, header, deps.now().getTime()))
}

const cookie = (value: string, maxAge: number) =>
  `${SESSION_COOKIE}=${value}; Path=${COOKIE_PATH}; Max-Age=${maxAge}; HttpOnly; Secure; SameSite=Strict`

/** What a session shows about its principal. */
export const whoami = (p: Principal) => ({ user: p.name, admin: p.kind === 'admin' })

/** `POST /ui/api/login`: checks the token and sets the session cookie. */
export async function login(deps: HubDeps, c: Context): Promise<Response> {
  // The hub's own body reader: its size limit (413), media types (415) and JSON errors (400).
  const parsed = LoginSchema.safeParse(await readObjectBody(c.req.raw))
  if (!parsed.success) throw badRequest('the login body must be {"token": "<bearer token>"}')
  const token = parsed.data.token.trim()
  if (/\s/.test(token)) throw badRequest('a token has no whitespace')
  const principal = refuseEdges(
    await authenticate(deps.kv, `Bearer ${token}`, deps.now().getTime())
  )
  return new Response(JSON.stringify(whoami(principal)), {
    status: 200,
    headers: {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      'set-cookie': cookie(encodeURIComponent(token), SESSION_SECONDS),
    },
  })
}

/** `POST /ui/api/logout`: clears the cookie (the token itself stays valid: revoke it to end it). */
export function logout(): Response {
  return new Response(null, {
    status: 204,
    headers: { 'cache-control': 'no-store', 'set-cookie': cookie('', 0) },
  })
}
