import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'
import { requestBootstrap } from '../../../infra/edge-bootstrap/call.ts'
import { BootstrapResponseSchema } from '../../../lib/edge/manifests-bootstrap.ts'
import { EDGE_AGENT_IMAGE } from '../../../lib/edge/manifests-image.ts'
import { resolveSpace } from '../../../lib/hub/spaces.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import type { LogFields } from '../../../lib/log.ts'
import { ADMIN_TOKEN, BASE, createTestHub, type TestHub } from '../../helpers/hub.ts'
import { createInventory, createSyncTarget } from './edge-setup.ts'

let hub: TestHub
let florin: string
beforeAll(async () => {
  hub = await createTestHub()
  await createInventory(hub.call, 'imw-1')
  florin = (await createSyncTarget(hub.call, 'imw-1', 'florin')).mailbox
})
afterAll(() => hub.close())

const BOOT = '/edge/v1/bootstrap'
const SYNC_TARGET = (name: string) =>
  `/clusters/root:imw-1/apis/edge.kcp.io/v1alpha1/synctargets/${name}`
const desired = (mb: string) => `/edge/v1/mailboxes/${mb}/desired`

describe('POST /edge/v1/bootstrap', () => {
  it('issues the credential and answers the manifests; running it again with rotate rotates', async () => {
    const res = await hub.call('POST', BOOT, { inventory: 'root:imw-1', syncTarget: 'florin' })
    expect(res.status).toBe(200)
    const first = BootstrapResponseSchema.parse(res.body)
    expect(first).toMatchObject({
      mailbox: florin,
      syncTarget: 'florin',
      namespace: 'edgeplane-system',
      centerUrl: BASE,
      image: EDGE_AGENT_IMAGE,
    })
    const docs = parseAllDocuments(first.manifests).map((d) => d.toJS())
    const deployment = docs.find((d) => d.kind === 'Deployment')
    expect(deployment.spec.template.spec.containers[0].image).toBe(EDGE_AGENT_IMAGE)
    const secret = docs.find((d) => d.kind === 'Secret')
    expect(Buffer.from(secret.data.token, 'base64').toString()).toBe(first.token)
    expect(Buffer.from(secret.data.mailbox, 'base64').toString()).toBe(florin)
    expect(docs.map((d) => d.kind)).toContain('Deployment')
    expect((await hub.call('GET', desired(florin), undefined, { token: first.token })).status).toBe(
      200
    )

    const again = BootstrapResponseSchema.parse(
      (
        await hub.call('POST', BOOT, {
          inventory: 'root:imw-1',
          syncTarget: 'florin',
          centerUrl: 'https://center.example/',
          namespace: 'agents',
          image: 'reg.example/agent:2',
          pollIntervalSeconds: 5,
          rotate: true,
        })
      ).body
    )
    expect(again.token).not.toBe(first.token)
    expect(again.centerUrl).toBe('https://center.example')
    expect(again.manifests).toContain('image: reg.example/agent:2')
    expect(again.manifests).not.toContain(EDGE_AGENT_IMAGE)
    expect(again.image).toBe('reg.example/agent:2')
    expect(again.manifests).toContain('namespace: agents')
    expect((await hub.call('GET', desired(florin), undefined, { token: first.token })).status).toBe(
      401
    )
    expect((await hub.call('GET', desired(florin), undefined, { token: again.token })).status).toBe(
      200
    )
  })

  it('refuses to replace a credential without rotate: 409 Conflict naming the field, the token kept', async () => {
    const { mailbox } = await createSyncTarget(hub.call, 'imw-1', 'tulip')
    const first = await hub.call('POST', BOOT, { inventory: 'root:imw-1', syncTarget: 'tulip' })
    expect(first.status).toBe(200)
    const token = BootstrapResponseSchema.parse(first.body).token
    for (const body of [
      { inventory: 'root:imw-1', syncTarget: 'tulip' },
      { inventory: 'root:imw-1', syncTarget: 'tulip', rotate: false },
    ]) {
      const again = await hub.call('POST', BOOT, body)
      expect(again.status).toBe(409)
      expect(again.body).toMatchObject({
        kind: 'Status',
        reason: 'Conflict',
        details: { name: mailbox, causes: [{ field: 'rotate' }] },
      })
      expect(again.body.message).toContain('SyncTarget "tulip" already has an edge credential')
    }
    expect((await hub.call('GET', desired(mailbox), undefined, { token })).status).toBe(200)
  })

  it.each([
    [{ inventory: 'root:imw-1', syncTarget: 'florin', rotate: 'yes' }, 'rotate'],
    [{ syncTarget: 'florin' }, 'inventory'],
    [{ inventory: 'root:imw-1', syncTarget: 'Not_A_Name' }, 'syncTarget'],
    [{ inventory: 'root:imw-1', syncTarget: 'florin', centerUrl: 'ftp://x' }, 'centerUrl'],
    [{ inventory: 'root:imw-1', syncTarget: 'florin', namespace: 'a.b' }, 'namespace'],
    [
      { inventory: 'root:imw-1', syncTarget: 'florin', pollIntervalSeconds: 0 },
      'pollIntervalSeconds',
    ],
    [{ inventory: 'root:imw-1', syncTarget: 'florin', bogus: 1 }, 'body'],
    [{ inventory: 'root:imw-1', syncTarget: 'florin', image: 'a b' }, 'image'],
    [{ inventory: 'root:imw-1', syncTarget: 'florin', image: '' }, 'image'],
  ])('400 naming the field for %o', async (body, field) => {
    const res = await hub.call('POST', BOOT, body)
    expect(res.status).toBe(400)
    expect(res.body.reason).toBe('BadRequest')
    expect(res.body.message).toContain(`${field}:`)
  })

  it('404 for an absent inventory space or SyncTarget, 503 (retry) before the mailbox exists', async () => {
    const noSpace = await hub.call('POST', BOOT, { inventory: 'root:nope', syncTarget: 'florin' })
    expect(noSpace.status).toBe(404)
    const noSt = await hub.call('POST', BOOT, { inventory: 'root:imw-1', syncTarget: 'nope' })
    expect(noSt.status).toBe(404)
    expect(noSt.body.message).toContain('synctargets.edge.kcp.io "nope" not found')
    await createSyncTarget(hub.call, 'imw-1', 'late', { mailbox: false })
    const early = await hub.call('POST', BOOT, { inventory: 'root:imw-1', syncTarget: 'late' })
    expect(early.status).toBe(503)
    expect(early.body.message).toContain('retry')
    expect(early.body.details.retryAfterSeconds).toBeGreaterThan(0)
  })

  it.each(['text/plain', 'application/xml', 'application/x-www-form-urlencoded'])(
    'refuses a %s request with a 415 Status',
    async (type) => {
      const res = await hub.call(
        'POST',
        BOOT,
        { inventory: 'root:imw-1', syncTarget: 'florin' },
        { contentType: type }
      )
      expect(res.status).toBe(415)
      expect(res.body).toMatchObject({ kind: 'Status', reason: 'UnsupportedMediaType' })
    }
  )

  it('is for admins only', async () => {
    await hub.mintToken('boot-user', ['root', 'root:*'])
    const res = await hub.call(
      'POST',
      BOOT,
      { inventory: 'root:imw-1', syncTarget: 'florin' },
      { token: 'boot-user' }
    )
    expect(res.status).toBe(403)
  })

  it('answers 409 naming the issue for a SyncTarget stored invalid, and logs it', async () => {
    await createSyncTarget(hub.call, 'imw-1', 'gilder', { mailbox: false })
    const stored = (await hub.call('GET', SYNC_TARGET('gilder'))).body as KubeObject
    const space = await resolveSpace(hub.deps.kv, 'root:imw-1')
    const key = {
      cluster: space.id,
      group: 'edge.kcp.io',
      resource: 'synctargets',
      namespace: '',
      name: 'gilder',
    }
    await hub.store.objects.update(
      key,
      { ...stored, spec: { unschedulable: 'yes' } },
      stored.metadata.resourceVersion ?? ''
    )
    const warnings: LogFields[] = []
    const log = hub.deps.log
    hub.deps.log = { ...log, warn: (_msg, fields = {}) => void warnings.push(fields) }
    try {
      const res = await hub.call('POST', BOOT, { inventory: 'root:imw-1', syncTarget: 'gilder' })
      expect(res.status).toBe(409)
      expect(JSON.stringify(res.body)).toContain('spec.unschedulable')
    } finally {
      hub.deps.log = log
    }
    expect(warnings).toContainEqual(
      expect.objectContaining({ step: 'bootstrap', kind: 'SyncTarget', key: `${space.id}/gilder` })
    )
  })
})

describe('the CLI request (infra/edge-bootstrap/call.ts) against the in-process hub', () => {
  const send = (url: string, init?: RequestInit) => Promise.resolve(hub.app.request(url, init))

  it('waits while the mailbox is being created, then returns the answer', async () => {
    const { mailbox } = await createSyncTarget(hub.call, 'imw-1', 'guilder', { mailbox: false })
    const retries: string[] = []
    const answer = await requestBootstrap(
      {
        hubUrl: `${BASE}/`,
        token: ADMIN_TOKEN,
        request: { inventory: 'root:imw-1', syncTarget: 'guilder' },
        waitSeconds: 60,
        retryMs: 1,
        sleep: async () => {
          // The mailbox step runs meanwhile, as the relay would trigger it.
          await hub.call('POST', '/hooks/mailbox', { keys: [mailbox] })
        },
        onRetry: (m) => retries.push(m),
      },
      send
    )
    expect(retries).toHaveLength(1)
    expect(answer.mailbox).toBe(mailbox)
    expect(
      (await hub.call('GET', desired(mailbox), undefined, { token: answer.token })).status
    ).toBe(200)
  })

  it('rejects with the Status message', async () => {
    const call = requestBootstrap(
      {
        hubUrl: BASE,
        token: 'not-a-token',
        request: { inventory: 'root:imw-1', syncTarget: 'florin' },
        waitSeconds: 0,
      },
      send
    )
    await expect(call).rejects.toThrow(/HTTP 401: Unauthorized/)
  })
})
