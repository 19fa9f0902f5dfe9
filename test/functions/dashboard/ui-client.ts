/**
 * The dashboard's API as its page calls it, for the route tests: `app.request()` with the
 * dashboard header and the session cookie the login set (or none), a JSON body unless told another
 * Content-Type (a string body is sent as it is), answers parsed as JSON.
 */
import type { TestHub } from '../../helpers/hub.ts'
import { BASE } from '../../helpers/hub.ts'

export type UiAnswer = { status: number; body: any; headers: Headers }

export function uiClient(hub: TestHub) {
  let cookie: string | undefined
  async function call(
    method: string,
    path: string,
    opts: { body?: unknown; header?: boolean; cookie?: string | null; contentType?: string } = {}
  ): Promise<UiAnswer> {
    const headers: Record<string, string> = {}
    if (opts.header !== false) headers['x-edgeplane-ui'] = '1'
    const c = opts.cookie === undefined ? cookie : opts.cookie
    if (c) headers.cookie = c
    if (opts.body !== undefined) headers['content-type'] = opts.contentType ?? 'application/json'
    const res = await hub.app.request(`${BASE}${path}`, {
      method,
      headers,
      ...(opts.body !== undefined
        ? { body: typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body) }
        : {}),
    })
    const text = await res.text()
    let body: unknown = text
    try {
      body = JSON.parse(text)
    } catch {
      // not JSON
    }
    return { status: res.status, body, headers: res.headers }
  }
  return {
    call,
    get: (path: string) => call('GET', path),
    async login(token: string): Promise<UiAnswer> {
      const res = await call('POST', '/ui/api/login', { body: { token }, cookie: null })
      const set = res.headers.get('set-cookie')
      if (res.status === 200 && set) cookie = set.split(';')[0]
      return res
    },
    logout: () => {
      cookie = undefined
    },
  }
}
