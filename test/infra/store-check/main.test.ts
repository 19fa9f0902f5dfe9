/**
 * `npm run store-check` as a process over a stopped stack's data folder: a store whose log holds
 * every last change exits 0 and says so; one with a write whose entry is missing and a delete
 * never logged exits 1 and names both objects, readably or as JSON.
 */
import { spawnSync } from 'node:child_process'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { DeleteItemCommand } from '@aws-sdk/client-dynamodb'
import { describe, expect, it } from 'vitest'
import { startDynalite } from '../../../infra/local/dynalite-server.ts'
import { createDynamoClient } from '../../../lib/store/dynamo-client.ts'
import { createDynamoStore } from '../../../lib/store/dynamo-store.ts'
import { ensureTable } from '../../../lib/store/ensure-table.ts'
import { logPk, objectPk, padRv } from '../../../lib/store/keys.ts'
import { TABLE } from '../../../lib/store/table.ts'
import { tempDir } from '../../helpers/temp-dir.ts'
import { cmKey, configMap } from '../../lib/store/fixtures.ts'

const NODE = join(process.cwd(), 'node_modules/.bin/node')

/** A data folder whose store holds `a` and `b`, then (when `broken`) loses two log entries. */
async function dataFolder(broken: boolean): Promise<string> {
  const dir = await tempDir('store-check-')
  await mkdir(join(dir, 'dynalite'))
  const db = await startDynalite({ path: join(dir, 'dynalite') })
  const client = createDynamoClient({
    region: 'us-east-1',
    endpoint: db.endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  })
  try {
    await ensureTable(client, TABLE, { tableName: 'edgeplane' })
    const store = createDynamoStore({ client, tableName: 'edgeplane', settleMs: 0 })
    const a = await store.objects.create(cmKey('a'), configMap('a'))
    await store.objects.create(cmKey('b'), configMap('b'))
    const gone = await store.objects.delete(cmKey('b'))
    if (broken) {
      const drop = (rv: string | undefined) =>
        client.send(
          new DeleteItemCommand({
            TableName: 'edgeplane',
            Key: { pk: { S: logPk('c1', '', 'configmaps') }, sk: { S: padRv(Number(rv)) } },
          })
        )
      await drop(a.metadata.resourceVersion)
      await drop(gone.metadata.resourceVersion)
    }
  } finally {
    client.destroy()
    await db.close()
  }
  return dir
}

function storeCheck(...args: string[]) {
  const out = spawnSync(
    NODE,
    ['--experimental-strip-types', 'infra/store-check/main.ts', ...args],
    {
      encoding: 'utf8',
      env: { ...process.env, EDGEPLANE_DATA: '', TABLE_NAME: '' },
    }
  )
  return { code: out.status, stdout: out.stdout, stderr: out.stderr }
}

describe('npm run store-check', () => {
  it('exits 0 on a store whose log holds every last change', async () => {
    const res = storeCheck('--data', await dataFolder(false))
    expect(res.stdout).toContain(
      '1 objects, 3 change-log entries (watermark 0): every last change is in the log'
    )
    expect(res.code).toBe(0)
  })

  it('exits 1 and names each object whose last change is not in the log', async () => {
    const dir = await dataFolder(true)
    const readable = storeCheck('--data', dir)
    expect(readable.code).toBe(1)
    expect(readable.stdout).toContain(
      'c1 configmaps default/a: stored, but its last write was never logged'
    )
    expect(readable.stdout).toContain(
      'c1 configmaps default/b: gone, but its delete was never logged'
    )
    const json = storeCheck('--data', dir, '--json')
    expect(json.code).toBe(1)
    const report = JSON.parse(json.stdout)
    expect(
      report.findings.map((f: { problem: string; object: string }) => `${f.problem} ${f.object}`)
    ).toEqual(['unlogged-write default/a', 'unlogged-delete default/b'])
    expect(report.findings[0].collection).toBe(objectPk('c1', '', 'configmaps'))
  })

  it('exits 2 on a folder without a store, and prints its usage for --help', async () => {
    const empty = storeCheck('--data', await tempDir('store-check-empty-'))
    expect(empty.code).toBe(2)
    expect(empty.stderr).toContain('no store in')
    const help = storeCheck('--help')
    expect([help.code, help.stdout.startsWith('usage: npm run store-check')]).toEqual([0, true])
  })
})
