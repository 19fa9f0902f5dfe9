import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDynamoClient } from '../../../lib/store/dynamo-client.ts'
import { createTableInput, ensureTable } from '../../../lib/store/ensure-table.ts'
import { TABLE } from '../../../lib/store/table.ts'
import { type Dynalite, startDynalite } from '../../helpers/dynalite.ts'

let db: Dynalite
beforeAll(async () => {
  db = await startDynalite()
})
afterAll(() => db.close())

describe('ensureTable', () => {
  it('builds the CreateTable request from the definition', () => {
    const input = createTableInput(TABLE, 'tbl')
    expect(input.TableName).toBe('tbl')
    expect(input.BillingMode).toBe('PAY_PER_REQUEST')
    expect(input.AttributeDefinitions?.map((a) => a.AttributeName).sort()).toEqual([
      'g1pk',
      'g1sk',
      'pk',
      'sk',
    ])
    expect(input.GlobalSecondaryIndexes?.[0]?.IndexName).toBe('gsi1')
  })

  it('creates the table once, concurrently too, and reports TTL as unsupported on dynalite', async () => {
    const client = createDynamoClient({
      region: 'us-east-1',
      endpoint: db.endpoint,
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    })
    try {
      const results = await Promise.all([
        ensureTable(client, TABLE, { tableName: 'ensure-1' }),
        ensureTable(client, TABLE, { tableName: 'ensure-1' }),
      ])
      expect(results.filter((r) => r.created)).toHaveLength(1)
      expect(results.every((r) => r.ttl === 'unsupported')).toBe(true)
      expect(await ensureTable(client, TABLE, { tableName: 'ensure-1' })).toEqual({
        created: false,
        ttl: 'unsupported',
      })
    } finally {
      client.destroy()
    }
  })
})
