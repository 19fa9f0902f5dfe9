/**
 * The dashboard's security headers (functions/dashboard/ui-headers.ts and the assets folder's
 * `_headers`): every answer of the Worker under /ui — a login, a session read, the refusals (no
 * dashboard header, no session), an unknown API route, a path there that is no static file —
 * carries `frame-ancestors 'none'`, nosniff and X-Frame-Options DENY, route headers kept; a
 * response with immutable headers gets them on a copy; and `_headers` gives every static file
 * under /ui/ index.html's own policy plus `frame-ancestors 'none'` (a <meta> policy cannot say it).
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { UI_API_HEADERS, withUiHeaders } from '../../../functions/dashboard/ui-headers.ts'
import { REPO_ROOT } from '../../../infra/repo-root.ts'
import { ADMIN_TOKEN, BASE, createTestHub, type TestHub } from '../../helpers/hub.ts'
import { uiClient } from './ui-client.ts'

const ASSETS = join(REPO_ROOT, 'functions/dashboard/assets')
let hub: TestHub

beforeAll(async () => {
  hub = await createTestHub()
})
afterAll(() => hub.close())

function expectUiHeaders(headers: Headers, what: string): void {
  expect(headers.get('content-security-policy'), what).toContain("frame-ancestors 'none'")
  expect(headers.get('x-content-type-options'), what).toBe('nosniff')
  expect(headers.get('x-frame-options'), what).toBe('DENY')
}

describe('the dashboard API answers', () => {
  it('carry the security headers, refusals and unknown routes included', async () => {
    const ui = uiClient(hub)
    const login = await ui.login(ADMIN_TOKEN)
    expect(login.status).toBe(200)
    expectUiHeaders(login.headers, 'login')
    const session = await ui.get('/ui/api/session')
    expect(session.status).toBe(200)
    expectUiHeaders(session.headers, 'session')
    // the route's own headers stay
    expect(session.headers.get('cache-control')).toBe('no-store')
    expect(session.headers.get('content-security-policy')).toBe(
      UI_API_HEADERS['content-security-policy']
    )
    const answers = {
      'no dashboard header': await ui.call('GET', '/ui/api/session', { header: false }),
      'no session': await ui.call('GET', '/ui/api/spaces', { cookie: null }),
      'unknown route': await ui.get('/ui/api/nothing-here'),
      'wrong method': await ui.call('DELETE', '/ui/api/session'),
    }
    expect(Object.values(answers).map((a) => a.status)).toEqual([403, 401, 404, 405])
    for (const [what, a] of Object.entries(answers)) {
      expect(a.body, what).toMatchObject({ kind: 'Status' })
      expectUiHeaders(a.headers, what)
    }
  })

  it('carry them on paths under /ui that are no static file', async () => {
    for (const path of ['/ui/missing.js', '/ui'] as const) {
      const res = await hub.app.request(`${BASE}${path}`)
      expect(res.status).toBeGreaterThanOrEqual(400)
      expectUiHeaders(res.headers, path)
    }
    // Elsewhere the hub's answers are its own.
    const api = await hub.app.request(`${BASE}/api/v1/namespaces`)
    expect(api.headers.get('x-frame-options')).toBeNull()
  })

  it('are added to a copy of a response whose headers are immutable', async () => {
    // As a passed-through fetch answer's on the platform: its headers refuse every change. (Not
    // Response.redirect: whether its headers are immutable depends on which Response class the
    // test worker's global holds — @hono/node-server replaces it — so the test did not know.)
    const immutable = new Response(null, { status: 302, headers: { location: 'https://hub/ui/' } })
    const frozen = new Headers(immutable.headers)
    for (const change of ['set', 'append', 'delete'] as const)
      Object.defineProperty(frozen, change, {
        value: () => {
          throw new TypeError('immutable')
        },
      })
    Object.defineProperty(immutable, 'headers', { value: frozen })
    expect(() => immutable.headers.set('x', '1')).toThrow()
    const res = withUiHeaders(immutable)
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('https://hub/ui/')
    expectUiHeaders(res.headers, 'redirect')
  })
})

/** The rules of a `_headers` file: path → header name (lowercase) → value. */
function parseHeadersFile(text: string): Map<string, Map<string, string>> {
  const rules = new Map<string, Map<string, string>>()
  let current: Map<string, string> | undefined
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    if (!line || line.startsWith('#')) continue
    if (line.startsWith('/')) {
      current = new Map()
      rules.set(line, current)
      continue
    }
    const colon = line.indexOf(':')
    current?.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim())
  }
  return rules
}

describe('the static files (_headers)', () => {
  it("give every file under /ui/ index.html's policy plus frame-ancestors 'none'", async () => {
    const rules = parseHeadersFile(await readFile(join(ASSETS, '_headers'), 'utf8'))
    const html = await readFile(join(ASSETS, 'ui', 'index.html'), 'utf8')
    const meta = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1]
    expect(meta).toContain("script-src 'self'")
    for (const path of ['/ui/*', '/ui']) {
      const rule = rules.get(path)
      expect(rule, path).toBeDefined()
      expect(rule?.get('x-content-type-options')).toBe('nosniff')
      expect(rule?.get('x-frame-options')).toBe('DENY')
      expect(rule?.get('content-security-policy')).toContain("frame-ancestors 'none'")
    }
    expect(rules.get('/ui/*')?.get('content-security-policy')).toBe(
      `${meta}; frame-ancestors 'none'`
    )
  })
})
