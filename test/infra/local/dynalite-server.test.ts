/**
 * The local stack's dynalite (infra/local/dynalite-server.ts): tables and items survive a close
 * and a new start in the same folder, two servers get distinct ports, and an idle keep-alive
 * connection is not closed by the server (a busy client reusing it must not get a reset).
 */
import { connect } from 'node:net'
import { join } from 'node:path'
import { ListTablesCommand } from '@aws-sdk/client-dynamodb'
import { beforeEach, describe, expect, it } from 'vitest'
import { startDynalite } from '../../../infra/local/dynalite-server.ts'
import { createDynamoClient } from '../../../lib/store/dynamo-client.ts'
import { createDynamoStore } from '../../../lib/store/dynamo-store.ts'
import { ensureTable } from '../../../lib/store/ensure-table.ts'
import { TABLE } from '../../../lib/store/table.ts'
import { tempDir } from '../../helpers/temp-dir.ts'

let dir: string

beforeEach(async () => {
  dir = await tempDir('ep-dyn-')
})

const clientFor = (endpoint: string) =>
  createDynamoClient({
    region: 'us-east-1',
    endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  })

describe('local dynalite', () => {
  it('keeps tables and items in its folder across a close and a new start', async () => {
    const first = await startDynalite({ path: join(dir, 'db') })
    expect(first.endpoint).toBe(`http://127.0.0.1:${first.port}`)
    const c1 = clientFor(first.endpoint)
    expect((await ensureTable(c1, TABLE, { tableName: 'persist' })).created).toBe(true)
    await createDynamoStore({ client: c1, tableName: 'persist' }).kv.put('notes', 'n1', {
      text: 'hello',
    })
    c1.destroy()
    await first.close()
    await first.close()

    const second = await startDynalite({ path: join(dir, 'db') })
    const c2 = clientFor(second.endpoint)
    try {
      expect((await c2.send(new ListTablesCommand({}))).TableNames).toEqual(['persist'])
      expect((await ensureTable(c2, TABLE, { tableName: 'persist' })).created).toBe(false)
      const got = await createDynamoStore({ client: c2, tableName: 'persist' }).kv.get<{
        text: string
      }>('notes', 'n1')
      expect(got?.value).toEqual({ text: 'hello' })
    } finally {
      c2.destroy()
      await second.close()
    }
  })

  it("keeps an idle keep-alive connection open past Node's default 5 s", async () => {
    const db = await startDynalite({})
    const socket = connect(db.port, '127.0.0.1')
    try {
      let ended = false
      socket.on('end', () => {
        ended = true
      })
      const ask = () =>
        new Promise<string>((resolve) => {
          socket.once('data', (d) => resolve(d.toString()))
          socket.write('GET / HTTP/1.1\r\nHost: local\r\nConnection: keep-alive\r\n\r\n')
        })
      expect(await ask()).toMatch(/^HTTP\/1\.1 /)
      // Node's default closes an idle connection 5 s after its last answer, on a timer checked
      // about once a second (6.0 s here without the setting).
      await new Promise((r) => setTimeout(r, 7_000))
      expect(ended).toBe(false)
      expect(await ask()).toMatch(/^HTTP\/1\.1 /)
    } finally {
      socket.destroy()
      await db.close()
    }
  })

  it('picks distinct free ports for two servers', async () => {
    const a = await startDynalite({})
    const b = await startDynalite({})
    try {
      expect(a.port).not.toBe(b.port)
    } finally {
      await a.close()
      await b.close()
    }
  })
})
