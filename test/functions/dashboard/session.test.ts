/**
 * The dashboard's session (functions/dashboard/session.ts) through the hub's app: login sets an
 * HttpOnly, Secure, SameSite=Strict cookie scoped to /ui/api and never answers the token; every
 * route needs the dashboard header; a missing, bad, revoked or edge token is refused as a kube
 * Status; logout clears the cookie.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registerToken, revokeToken } from '../../../lib/auth/tokens.ts'
import { ADMIN_TOKEN, createTestHub, type TestHub } from '../../helpers/hub.ts'
import { uiClient } from './ui-client.ts'

let hub: TestHub

beforeAll(async () => {
  hub = await createTestHub()
})
afterAll(() => hub.close())

describe('dashboard session', () => {
  it('logs in with a token and keeps it in an HttpOnly cookie only', async () => {
    const ui = uiClient(hub)
    const res = await ui.login(ADMIN_TOKEN)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ user: expect.any(String), admin: true })
    expect(JSON.stringify(res.body)).not.toContain(ADMIN_TOKEN)
    const set = res.headers.get('set-cookie') ?? ''
    expect(set).toMatch(/^edgeplane-session=/)
    for (const attr of ['HttpOnly', 'Secure', 'SameSite=Strict', 'Path=/ui/api'])
      expect(set).toContain(attr)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const session = await ui.get('/ui/api/session')
    expect(session.status).toBe(200)
    expect(session.body.admin).toBe(true)
  })

  it('refuses requests without the dashboard header, even with a valid cookie', async () => {
    const ui = uiClient(hub)
    await ui.login(ADMIN_TOKEN)
    const res = await ui.call('GET', '/ui/api/session', { header: false })
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403 })
    const login = await ui.call('POST', '/ui/api/login', {
      body: { token: ADMIN_TOKEN },
      header: false,
    })
    expect(login.status).toBe(403)
    expect(login.headers.get('set-cookie')).toBeNull()
  })

  it('answers 401 Status without a session and for a bad token', async () => {
    const ui = uiClient(hub)
    expect((await ui.get('/ui/api/session')).status).toBe(401)
    const bad = await ui.login('not-a-token')
    expect(bad.status).toBe(401)
    expect(bad.body).toMatchObject({ kind: 'Status', code: 401 })
    expect(bad.headers.get('set-cookie')).toBeNull()
  })

  it('answers 400 for hostile login bodies', async () => {
    const ui = uiClient(hub)
    for (const body of [
      '{',
      '[]',
      JSON.stringify({ token: '' }),
      JSON.stringify({ token: 'a b' }),
    ]) {
      const res = await ui.call('POST', '/ui/api/login', { body, cookie: null })
      expect(res.status, body).toBe(400)
      expect(res.body.kind).toBe('Status')
    }
  })

  it('ends the session when the token is revoked, and refuses edge credentials', async () => {
    await registerToken(hub.store.kv, 'short-lived', {
      name: 'sam',
      kind: 'user',
      spaces: ['root'],
    })
    const ui = uiClient(hub)
    expect((await ui.login('short-lived')).status).toBe(200)
    expect((await ui.get('/ui/api/session')).body).toEqual({ user: 'sam', admin: false })
    await revokeToken(hub.store.kv, 'short-lived')
    expect((await ui.get('/ui/api/session')).status).toBe(401)
    await registerToken(hub.store.kv, 'edge-token', { name: 'edge', kind: 'edge', spaces: [] })
    const edge = await uiClient(hub).login('edge-token')
    expect(edge.status).toBe(403)
  })

  it('clears the cookie on logout', async () => {
    const ui = uiClient(hub)
    await ui.login(ADMIN_TOKEN)
    const res = await ui.call('POST', '/ui/api/logout')
    expect(res.status).toBe(204)
    expect(res.headers.get('set-cookie')).toMatch(/^edgeplane-session=; .*Max-Age=0/)
  })

  it('answers unknown routes and methods with a Status', async () => {
    const ui = uiClient(hub)
    await ui.login(ADMIN_TOKEN)
    expect((await ui.get('/ui/api/nothing')).status).toBe(404)
    expect((await ui.get('/ui/api/a/b')).status).toBe(404)
    expect((await ui.call('DELETE', '/ui/api/matrix')).status).toBe(405)
    expect((await ui.get('/ui/api/login')).status).toBe(405)
  })
})
