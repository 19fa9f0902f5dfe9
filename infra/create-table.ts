/**
 * CLI: creates the edgeplane table (from `lib/store/table.ts`) if it is missing and waits until it is
 * ACTIVE; idempotent. For dynalite pass `--endpoint http://127.0.0.1:8000` (dummy credentials are
 * used then); without `--endpoint` the AWS SDK's default region and credentials apply.
 *
 *   npx node infra/create-table.ts --endpoint http://127.0.0.1:8000 [--table edgeplane]
 */

import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { createDynamoClient } from '../lib/store/dynamo-client.ts'
import { ensureTable } from '../lib/store/ensure-table.ts'
import { TABLE } from '../lib/store/table.ts'

export const USAGE = `Usage: create-table [--endpoint URL] [--table NAME] [--region REGION]

Creates the edgeplane DynamoDB table if it does not exist and waits until it is ACTIVE.

  --endpoint URL   DynamoDB endpoint, e.g. http://127.0.0.1:8000 for dynalite
  --table NAME     table name (default: ${TABLE.defaultName})
  --region REGION  AWS region (default: us-east-1)
  --help           show this help`

/** Runs the CLI with `argv` (without node and script); returns the exit code. */
export async function runCreateTable(
  argv: string[],
  print: (line: string) => void = console.log
): Promise<number> {
  let values: { endpoint?: string; table?: string; region?: string; help?: boolean }
  try {
    values = parseArgs({
      args: argv,
      options: {
        endpoint: { type: 'string' },
        table: { type: 'string' },
        region: { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }).values
  } catch (e) {
    print(`${e instanceof Error ? e.message : String(e)}\n\n${USAGE}`)
    return 2
  }
  if (values.help) {
    print(USAGE)
    return 0
  }
  const tableName = values.table ?? TABLE.defaultName
  const client = createDynamoClient({
    region: values.region ?? 'us-east-1',
    ...(values.endpoint
      ? {
          endpoint: values.endpoint,
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : {}),
  })
  try {
    const result = await ensureTable(client, TABLE, { tableName })
    print(`table ${tableName}: ${result.created ? 'created' : 'already exists'}, TTL ${result.ttl}`)
    return 0
  } finally {
    client.destroy()
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runCreateTable(process.argv.slice(2))
}
