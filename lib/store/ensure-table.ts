/**
 * Creates the table from its definition (`lib/store/table.ts`) unless it exists, waits until the
 * table and its indexes are ACTIVE, and turns on TTL where the service supports it (dynalite does
 * not; that is reported, not an error). A table it creates is recorded at the current stored format
 * (format.ts). Safe to run any number of times, also concurrently.
 */
import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  type DynamoDBClient,
  type TableDescription,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb'
import { recordNewTable } from './format.ts'
import type { TableDefinition } from './table.ts'

export type EnsureTableResult = {
  created: boolean
  /** `enabled`: TTL is on or was turned on; `unsupported`: the service refused (dynalite). */
  ttl: 'enabled' | 'unsupported'
}

export type EnsureTableOptions = {
  tableName?: string
  /** Give up waiting for ACTIVE after this long (ms). */
  timeoutMs?: number
}

/** The CreateTable request for a definition. */
export function createTableInput(def: TableDefinition, tableName: string): CreateTableCommandInput {
  const keys = (schema: TableDefinition['keySchema']) =>
    schema.map((k) => ({ AttributeName: k.attribute, KeyType: k.keyType }))
  return {
    TableName: tableName,
    KeySchema: keys(def.keySchema),
    AttributeDefinitions: Object.entries(def.attributes).map(([name, type]) => ({
      AttributeName: name,
      AttributeType: type,
    })),
    GlobalSecondaryIndexes: def.globalIndexes.map((gsi) => ({
      IndexName: gsi.name,
      KeySchema: keys(gsi.keySchema),
      Projection: { ProjectionType: gsi.projection },
    })),
    BillingMode: def.billingMode,
  }
}

async function describe(
  client: DynamoDBClient,
  tableName: string
): Promise<TableDescription | undefined> {
  try {
    const out = await client.send(new DescribeTableCommand({ TableName: tableName }))
    return out.Table
  } catch (e) {
    if (e instanceof Error && e.name === 'ResourceNotFoundException') return undefined
    throw e
  }
}

function isActive(table: TableDescription | undefined): boolean {
  if (table?.TableStatus !== 'ACTIVE') return false
  return (table.GlobalSecondaryIndexes ?? []).every((g) => g.IndexStatus === 'ACTIVE')
}

async function enableTtl(client: DynamoDBClient, tableName: string, attribute: string) {
  try {
    const out = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }))
    const status = out.TimeToLiveDescription?.TimeToLiveStatus
    if (status === 'ENABLED' || status === 'ENABLING') return 'enabled' as const
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: attribute, Enabled: true },
      })
    )
    return 'enabled' as const
  } catch {
    return 'unsupported' as const
  }
}

/** Creates the table if missing and waits until it is ACTIVE. */
export async function ensureTable(
  client: DynamoDBClient,
  def: TableDefinition,
  options: EnsureTableOptions = {}
): Promise<EnsureTableResult> {
  const tableName = options.tableName ?? def.defaultName
  let created = false
  if (!(await describe(client, tableName))) {
    try {
      await client.send(new CreateTableCommand(createTableInput(def, tableName)))
      created = true
    } catch (e) {
      if (!(e instanceof Error && e.name === 'ResourceInUseException')) throw e
    }
  }
  const deadline = Date.now() + (options.timeoutMs ?? 120_000)
  while (!isActive(await describe(client, tableName))) {
    if (Date.now() > deadline) throw new Error(`table ${tableName} did not become ACTIVE in time`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  if (created) await recordNewTable(client, tableName)
  return { created, ttl: await enableTtl(client, tableName, def.ttlAttribute) }
}
