/**
 * The dashboard's fetch wrapper for /ui/api/*: every request sends `x-edgeplane-ui: 1` with the
 * same-origin session cookie and speaks JSON; an error answer becomes an ApiError carrying the
 * kube Status message; a 401 from any endpoint calls the handler app.js registers (the login
 * view). The token is only ever sent in the login request's body.
 */

export class ApiError extends Error {
  constructor(code, status) {
    super(status?.message || `request failed (HTTP ${code})`)
    this.name = 'ApiError'
    this.code = code
    this.reason = status?.reason ?? ''
  }
}

let unauthorized = () => {}

/** Registers what happens on a 401 (shows the login form). */
export function onUnauthorized(fn) {
  unauthorized = fn
}

async function errorOf(res) {
  let status = null
  try {
    const body = await res.json()
    if (body && typeof body === 'object') status = body
  } catch {
    // not JSON: the code alone says what happened
  }
  return new ApiError(res.status, status)
}

/** `?a=1&b=x`, leaving out empty values. */
export function query(params) {
  const q = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === '' || v === false) continue
    q.set(k, v === true ? '1' : String(v))
  }
  const s = q.toString()
  return s ? `?${s}` : ''
}

/**
 * Calls `/ui/api/<path>`. Options: method, body (sent as JSON) or yaml (text sent as
 * application/yaml, which JSON also is), signal, stream (return the Response for reading its
 * body), quiet401 (a 401 is only thrown, e.g. for the login itself).
 */
export async function api(path, opts = {}) {
  const headers = { 'x-edgeplane-ui': '1', accept: 'application/json' }
  let body
  if (opts.yaml !== undefined) {
    headers['content-type'] = 'application/yaml'
    body = opts.yaml
  } else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json'
    body = JSON.stringify(opts.body)
  }
  const res = await fetch(`/ui/api/${path}`, {
    method: opts.method ?? 'GET',
    headers,
    body,
    credentials: 'same-origin',
    cache: 'no-store',
    signal: opts.signal,
  })
  if (!res.ok) {
    const err = await errorOf(res)
    if (res.status === 401 && !opts.quiet401) unauthorized()
    throw err
  }
  if (opts.stream) return res
  if (res.status === 204) return null
  return res.json()
}

/** Whether `e` is a fetch cancelled by its AbortSignal. */
export const isAbort = (e) => e?.name === 'AbortError'
