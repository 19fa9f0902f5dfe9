/**
 * The dashboard's security headers on every answer of the Worker under /ui (its API, and a 404 or
 * 401 for a path there that is no static file): no framing by any origin (`frame-ancestors
 * 'none'`, and X-Frame-Options for older browsers), no content sniffing, no referrer, and a
 * policy that lets a JSON answer load nothing. The static files get the same from the assets
 * folder's `_headers` (functions/dashboard/assets/_headers), which the platform applies before
 * the Worker runs. Headers a route set itself are kept; a response whose headers cannot be
 * changed (one passed through from elsewhere) is copied first.
 */
import type { MiddlewareHandler } from 'hono'

export const UI_API_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
}

/** `res` with the dashboard's headers (those already present kept). */
export function withUiHeaders(res: Response): Response {
  let out = res
  try {
    for (const [name, value] of Object.entries(UI_API_HEADERS))
      if (!out.headers.has(name)) out.headers.set(name, value)
  } catch {
    out = new Response(res.body, res)
    for (const [name, value] of Object.entries(UI_API_HEADERS))
      if (!out.headers.has(name)) out.headers.set(name, value)
  }
  return out
}

/** Middleware adding them to whatever the rest of the app answers, errors included. */
export const uiHeaders: MiddlewareHandler = async (c, next) => {
  await next()
  c.res = withUiHeaders(c.res)
}
