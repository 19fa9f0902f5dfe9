/**
 * `npm start`'s dynalite in its supervised child (infra/local/dynalite-process.ts): it serves
 * signed clients from its folder; a request cut mid-body leaves it serving, the same process; a
 * store that dies (as dynalite dies on an error it throws, a LevelDB failure) is started again on
 * the same port with its data, the failure logged with the cause, and this process never sees the
 * error; a close stops the child.
 */
import { ListTablesCommand } from '@aws-sdk/client-dynamodb'
import { afterEach, describe, expect, it } from 'vitest'
import {
  type DynaliteProcess,
  startDynaliteProcess,
} from '../../../infra/local/dynalite-process.ts'
import { generateStoreKey } from '../../../infra/local/store-key.ts'
import { createLogger } from '../../../lib/log.ts'
import { createDynamoClient } from '../../../lib/store/dynamo-client.ts'
import { ensureTable } from '../../../lib/store/ensure-table.ts'
import { TABLE } from '../../../lib/store/table.ts'
import { sendHalfRequest } from '../../helpers/half-sent.ts'
import { tempDir } from '../../helpers/temp-dir.ts'
import { waitUntil } from '../../helpers/wait-until.ts'

const key = generateStoreKey()
const lines: string[] = []
const log = createLogger({ level: 'info', sink: (line: string) => lines.push(line) })
let db: DynaliteProcess | undefined

afterEach(async () => {
  await db?.close()
  db = undefined
})

const clientFor = (endpoint: string) =>
  createDynamoClient({ region: 'us-east-1', endpoint, credentials: key, maxAttempts: 1 })

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('the local store in a child process', () => {
  it('a request cut mid-body leaves the same store serving', async () => {
    db = await startDynaliteProcess({ path: await tempDir('ep-dynp-'), key, log })
    const pid = db.pid()
    const client = clientFor(db.endpoint)
    await ensureTable(client, TABLE, { tableName: 'edgeplane' })
    await sendHalfRequest(db.port)
    await sendHalfRequest(db.port)
    const tables = await client.send(new ListTablesCommand({}))
    expect(tables.TableNames).toEqual(['edgeplane'])
    expect(db.pid()).toBe(pid)
    expect(db.restarts()).toBe(0)
    client.destroy()
  })

  it('a store that dies is started again on the same port with its data', async () => {
    db = await startDynaliteProcess({ path: await tempDir('ep-dynp-'), key, log })
    const client = clientFor(db.endpoint)
    await ensureTable(client, TABLE, { tableName: 'edgeplane' })
    const first = db.pid() ?? 0
    process.kill(first, 'SIGKILL')
    await waitUntil(() => db?.restarts() === 1 && db.pid() !== undefined)
    await waitUntil(async () => {
      try {
        return (await client.send(new ListTablesCommand({}))).TableNames?.[0] === 'edgeplane'
      } catch {
        return false
      }
    })
    expect(db.pid()).not.toBe(first)
    expect(lines.some((l) => l.includes('the local store failed') && l.includes('SIGKILL'))).toBe(
      true
    )
    client.destroy()
    const second = db.pid() ?? 0
    await db.close()
    expect(alive(second)).toBe(false)
  })
})
