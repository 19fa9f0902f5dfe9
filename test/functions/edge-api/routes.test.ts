import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'
import { createInventory, createSyncTarget, edgeToken } from './edge-setup.ts'

let hub: TestHub
let mine: string
let other: string
let token: string
beforeAll(async () => {
  hub = await createTestHub()
  await createInventory(hub.call, 'imw-r')
  mine = (await createSyncTarget(hub.call, 'imw-r', 'florin')).mailbox
  other = (await createSyncTarget(hub.call, 'imw-r', 'guilder')).mailbox
  token = await edgeToken(hub, mine)
})
afterAll(() => hub.close())

const desired = (mb: string) => `/edge/v1/mailboxes/${mb}/desired`
const reports = (mb: string) => `/edge/v1/mailboxes/${mb}/reports`
const REPORT = { kind: 'Report', heartbeat: true }

describe('an edge credential', () => {
  it('reaches its own mailbox', async () => {
    expect((await hub.call('GET', desired(mine), undefined, { token })).status).toBe(200)
    const res = await hub.call('POST', reports(mine), REPORT, { token })
    expect(res.status).toBe(200)
    expect(res.body.kind).toBe('ReportResult')
  })
  it.each([
    ['GET', '/clusters/root/api/v1/namespaces', undefined],
    ['GET', '/api/v1/namespaces', undefined],
    ['GET', '/clusters/root:espw:MINE/api/v1/configmaps', undefined],
    ['GET', '/clusters/MINE/api/v1/configmaps', undefined],
    ['POST', '/clusters/root/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {}],
    ['POST', '/hooks/translate', { keys: ['x'] }],
    ['POST', '/edge/v1/bootstrap', { inventory: 'root:imw-r', syncTarget: 'florin' }],
    ['GET', desired('OTHER'), undefined],
    ['POST', reports('OTHER'), REPORT],
  ])('gets 403 with a reason on %s %s', async (method, path, body) => {
    const p = path.replace('MINE', mine).replace('OTHER', other)
    const res = await hub.call(method, p, body, { token })
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403 })
    expect(res.body.message).toContain(`may only call /edge/v1/mailboxes/${mine}/`)
  })
  it('gets 401 once rotated', async () => {
    const old = await edgeToken(hub, other)
    expect((await hub.call('GET', desired(other), undefined, { token: old })).status).toBe(200)
    const fresh = await edgeToken(hub, other)
    expect((await hub.call('GET', desired(other), undefined, { token: old })).status).toBe(401)
    expect((await hub.call('POST', reports(other), REPORT, { token: old })).status).toBe(401)
    expect((await hub.call('GET', desired(other), undefined, { token: fresh })).status).toBe(200)
  })
})

describe('other callers', () => {
  it('users get 403 on the whole edge API', async () => {
    await hub.mintToken('user-everywhere', ['root', 'root:*'])
    for (const [method, path] of [
      ['GET', desired(mine)],
      ['POST', reports(mine)],
      ['POST', '/edge/v1/bootstrap'],
      ['GET', '/edge/v1/nothing'],
    ] as const) {
      const body = method === 'POST' ? {} : undefined
      const res = await hub.call(method, path, body, { token: 'user-everywhere' })
      expect(res.status, path).toBe(403)
      expect(res.body.message).toContain('cannot call the edge API')
    }
    expect(
      (await hub.call('GET', '/api/v1/namespaces', undefined, { token: 'user-everywhere' })).status
    ).toBe(200)
  })
  it('admins reach every mailbox; no token is 401', async () => {
    expect((await hub.call('GET', desired(other))).status).toBe(200)
    expect((await hub.call('GET', desired(mine), undefined, { token: null })).status).toBe(401)
  })
  it('answers 404 for unknown paths and mailboxes, 405 for other methods', async () => {
    expect((await hub.call('GET', '/edge/v1/nothing')).status).toBe(404)
    expect((await hub.call('GET', `/edge/v1/mailboxes/${mine}`)).status).toBe(404)
    const absent = `${mine.slice(0, -12)}000000000000`
    const res = await hub.call('GET', desired(absent))
    expect(res.status).toBe(404)
    expect(res.body.message).toContain(`root:espw:${absent}`)
    for (const junk of ['m'.repeat(3000), 'root:espw', 'UPPER-mb-x'])
      expect((await hub.call('GET', desired(junk))).status, junk).toBe(404)
    expect((await hub.call('PUT', desired(mine), {})).status).toBe(405)
    expect((await hub.call('GET', reports(mine))).status).toBe(405)
    expect((await hub.call('GET', '/edge/v1/bootstrap')).status).toBe(405)
  })
})
