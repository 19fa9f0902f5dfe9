import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DynaliteServer, startDynalite } from '../../../infra/local/dynalite-server.ts'
import { prepareHub } from '../../../infra/local/hub-setup.ts'
import { authenticate } from '../../../lib/auth/tokens.ts'
import { readConfig } from '../../../lib/env.ts'
import { openStore } from '../../../lib/hub/hub-deps.ts'
import { getSpaceByPath } from '../../../lib/hub/spaces.ts'
import { silentLogger } from '../../../lib/log.ts'

let db: DynaliteServer

beforeAll(async () => {
  db = await startDynalite({})
})
afterAll(async () => {
  await db?.close()
})

describe('prepareHub', () => {
  it('creates the table once and bootstraps root:espw and the admin token, idempotently', async () => {
    const opts = {
      ddbEndpoint: db.endpoint,
      tableName: 'hubsetup',
      adminToken: 'admin-secret',
      baseUrl: 'http://127.0.0.1:9999',
      log: silentLogger,
    }
    expect(await prepareHub(opts)).toEqual({ tableCreated: true })
    expect(await prepareHub(opts)).toEqual({ tableCreated: false })

    const { store } = openStore(readConfig({ DDB_ENDPOINT: db.endpoint, TABLE_NAME: 'hubsetup' }))
    try {
      const espw = await getSpaceByPath(store.kv, 'root:espw')
      expect(espw?.path).toBe('root:espw')
      const ws = await store.objects.get({
        cluster: 'root',
        group: 'tenancy.kcp.io',
        resource: 'workspaces',
        namespace: '',
        name: 'espw',
      })
      expect((ws?.status as { URL?: string } | undefined)?.URL).toBe(
        'http://127.0.0.1:9999/clusters/root:espw'
      )
      expect((await authenticate(store.kv, 'Bearer admin-secret')).kind).toBe('admin')
      await expect(authenticate(store.kv, 'Bearer other')).rejects.toMatchObject({ code: 401 })
      const all = await store.objects.list({
        cluster: 'root',
        group: 'tenancy.kcp.io',
        resource: 'workspaces',
      })
      expect(all.items.map((i) => i.metadata.name)).toEqual(['espw'])
    } finally {
      store.client.destroy()
    }
  })
})
