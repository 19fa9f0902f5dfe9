import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runMaintenance } from '../../../functions/maintenance.ts'
import { mailboxOf } from '../../../functions/reconcile-mailbox/names.ts'
import { ADMIN_TOKEN, BASE, createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
beforeAll(async () => {
  hub = await createTestHub()
  await hub.call('POST', '/clusters/root/apis/tenancy.kcp.io/v1alpha1/workspaces', {
    apiVersion: 'tenancy.kcp.io/v1alpha1',
    kind: 'Workspace',
    metadata: { name: 'imw-h' },
  })
})
afterAll(() => hub.close())

const createSyncTarget = async (name: string) =>
  (
    await hub.call('POST', '/clusters/root:imw-h/apis/edge.kcp.io/v1alpha1/synctargets', {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'SyncTarget',
      metadata: { name },
    })
  ).body

describe('POST /hooks/<step>', () => {
  it('runs the step for each key once, and a repeated delivery is harmless', async () => {
    const key = mailboxOf(await createSyncTarget('a'))!
    const first = await hub.call('POST', '/hooks/mailbox', { keys: [key, key] })
    expect(first.status).toBe(200)
    expect(first.body.results).toEqual([{ key, ok: true, outcome: 'created' }])
    const again = await hub.call('POST', '/hooks/mailbox', { keys: [key] })
    expect(again.body.results[0].outcome).toBe('unchanged')
    const ws = await hub.call(
      'GET',
      `/clusters/root:espw/apis/tenancy.kcp.io/v1alpha1/workspaces/${key}`
    )
    expect(ws.status).toBe(200)
  })
  it('refuses bad bodies, unknown steps and non-admin tokens', async () => {
    expect((await hub.call('POST', '/hooks/mailbox', { keys: [] })).status).toBe(400)
    expect((await hub.call('POST', '/hooks/mailbox', '{"keys": ')).status).toBe(400)
    expect((await hub.call('POST', '/hooks/nope', { keys: ['x'] })).status).toBe(404)
    await hub.mintToken('plain-user', ['root'])
    expect(
      (await hub.call('POST', '/hooks/mailbox', { keys: ['x'] }, { token: 'plain-user' })).status
    ).toBe(403)
    expect(
      (await hub.call('POST', '/hooks/mailbox', { keys: ['x'] }, { token: null })).status
    ).toBe(401)
  })
  let typed = 0
  it.each([
    'text/plain',
    'application/xml',
    'multipart/form-data; boundary=x',
    'application/x-www-form-urlencoded',
    'application/merge-patch+json',
    'application/vnd.kubernetes.protobuf',
    'not a type',
  ])('refuses a %s body with a 415 Status, running nothing', async (type) => {
    const key = mailboxOf(await createSyncTarget(`ct-${++typed}`))!
    const res = await hub.call('POST', '/hooks/mailbox', { keys: [key] }, { contentType: type })
    expect(res.status).toBe(415)
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'UnsupportedMediaType', code: 415 })
    const ws = `/clusters/root:espw/apis/tenancy.kcp.io/v1alpha1/workspaces/${key}`
    expect((await hub.call('GET', ws)).status).toBe(404)
  })
  it('takes JSON with a charset, YAML, and a body with no Content-Type as JSON', async () => {
    const types = ['application/json; charset=utf-8', 'application/yaml', undefined]
    for (const [i, type] of types.entries()) {
      const key = mailboxOf(await createSyncTarget(`typed-${i}`))!
      const body =
        type === 'application/yaml' ? `keys:\n  - ${key}\n` : JSON.stringify({ keys: [key] })
      const headers: Record<string, string> = { authorization: `Bearer ${ADMIN_TOKEN}` }
      if (type) headers['content-type'] = type
      const res = await hub.app.request(`${BASE}/hooks/mailbox`, {
        method: 'POST',
        headers,
        body: new TextEncoder().encode(body),
      })
      expect(res.status).toBe(200)
      expect(((await res.json()) as any).results).toEqual([{ key, ok: true, outcome: 'created' }])
    }
  })
  it('reports a failing key without stopping the others', async () => {
    const key = mailboxOf(await createSyncTarget('b'))!
    const res = await hub.call('POST', '/hooks/mailbox', { keys: ['garbage', key] })
    expect(res.body.results.map((r: any) => r.ok)).toEqual([false, true])
  })
})

describe('the resync timer', () => {
  it('creates a mailbox no event announced', async () => {
    const key = mailboxOf(await createSyncTarget('silent'))!
    await runMaintenance(hub.deps, hub.store, { cron: '* * * * *', baseUrl: '' })
    const ws = await hub.call(
      'GET',
      `/clusters/root:espw/apis/tenancy.kcp.io/v1alpha1/workspaces/${key}`
    )
    expect(ws.status).toBe(200)
  })
})
