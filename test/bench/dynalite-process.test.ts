/**
 * The bench's dynalite in a child process: it serves DynamoDB requests at the endpoint it prints,
 * its CPU time is read from /proc and grows with the work it does, and close() stops it.
 */
import { ListTablesCommand } from '@aws-sdk/client-dynamodb'
import { describe, expect, it } from 'vitest'
import { procCpuMs, startDynaliteProcess } from '../../bench/dynalite-process.ts'
import { createDynamoClient } from '../../lib/store/dynamo-client.ts'
import { ensureTable } from '../../lib/store/ensure-table.ts'
import { TABLE } from '../../lib/store/table.ts'

describe('procCpuMs', () => {
  it("reads this process's CPU time as process.cpuUsage counts it", () => {
    const spinUntil = performance.now() + 150
    while (performance.now() < spinUntil) Math.sqrt(Math.random())
    const usage = process.cpuUsage()
    const own = procCpuMs(process.pid)
    // /proc counts in ticks of 10 ms.
    expect(Math.abs(own - (usage.user + usage.system) / 1000)).toBeLessThan(40)
  })

  it('is NaN for a process that does not exist', () => {
    expect(procCpuMs(2 ** 30)).toBeNaN()
  })
})

describe('startDynaliteProcess', () => {
  it('serves requests from its own process and stops on close', async () => {
    const db = await startDynaliteProcess()
    const client = createDynamoClient({
      region: 'us-east-1',
      endpoint: db.endpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    })
    try {
      const before = db.cpuMs()
      await ensureTable(client, TABLE, { tableName: 'child-test' })
      for (let i = 0; i < 20; i++) await client.send(new ListTablesCommand({}))
      const tables = await client.send(new ListTablesCommand({}))
      expect(tables.TableNames).toEqual(['child-test'])
      expect(db.cpuMs()).toBeGreaterThan(before)
    } finally {
      client.destroy()
      await db.close()
    }
    await expect(client.send(new ListTablesCommand({})).catch(() => 'refused')).resolves.toBe(
      'refused'
    )
  }, 30_000)
})
