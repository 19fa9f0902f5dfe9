/**
 * `npm run store-check`: compares the change log of a local stack's store with its stored objects
 * (lib/store/log-check.ts) and reports every object whose last change no watch would deliver.
 * A running stack (stack.json in the data folder) is read through its dynalite, signing with its
 * store key; a stopped stack's `dynalite/` folder is opened in this process (LevelDB refuses a
 * folder another process holds). Without `--data` the folder is found as every CLI finds the
 * local stack's (infra/stack-discovery.ts): the one with a stack.json, else the first with a
 * store. Exits 0 on a clean store, 1 on findings, 2 when it cannot check.
 */
import { readFile, stat } from 'node:fs/promises'
import { readConfig } from '../../lib/env.ts'
import { openStore } from '../../lib/hub/hub-deps.ts'
import type { LogCheckReport } from '../../lib/store/log-check.ts'
import { dataPaths } from '../local/data-dir.ts'
import { startDynalite } from '../local/dynalite-server.ts'
import { readStackInfo } from '../local/stack-info.ts'
import type { StoreKey } from '../local/store-key.ts'
import { dataDirCandidates, findLocalStack } from '../stack-discovery.ts'
import { parseStoreCheckArgs, USAGE } from './cli-args.ts'
import { renderReport } from './format.ts'

type Opened = { endpoint: string; key?: StoreKey; table: string; close(): Promise<void> }

async function openData(dataDir: string, table: string): Promise<Opened | string> {
  const paths = dataPaths(dataDir)
  const stack = await readStackInfo(paths.stackInfo)
  if (stack) {
    const keyText = stack.dynalite.keyFile
      ? await readFile(stack.dynalite.keyFile, 'utf8')
      : undefined
    return {
      endpoint: stack.dynalite.endpoint,
      ...(keyText ? { key: JSON.parse(keyText) as StoreKey } : {}),
      table: stack.tableName,
      close: async () => undefined,
    }
  }
  const folder = await stat(paths.dynalite).catch(() => undefined)
  if (!folder?.isDirectory()) return `no store in ${dataDir} (no dynalite/ folder)`
  const db = await startDynalite({ path: paths.dynalite })
  return { endpoint: db.endpoint, table, close: () => db.close() }
}

/** The data folder: `--data`, the running stack's, else the first candidate holding a store. */
async function dataDirOf(given: string | undefined): Promise<string> {
  if (given) return given
  const found = await findLocalStack(process.env, process.cwd())
  if (found.info) return found.dataDir
  for (const dir of dataDirCandidates(process.env, process.cwd()))
    if ((await stat(dataPaths(dir).dynalite).catch(() => undefined))?.isDirectory()) return dir
  return found.dataDir
}

async function check(opened: Opened): Promise<LogCheckReport> {
  const handle = openStore(
    readConfig({
      DDB_ENDPOINT: opened.endpoint,
      TABLE_NAME: opened.table,
      LOG_LEVEL: 'error',
      ...(opened.key
        ? {
            AWS_ACCESS_KEY_ID: opened.key.accessKeyId,
            AWS_SECRET_ACCESS_KEY: opened.key.secretAccessKey,
          }
        : {}),
    })
  )
  try {
    return await handle.store.checkLog()
  } finally {
    handle.store.client.destroy()
  }
}

async function main(): Promise<number> {
  const args = parseStoreCheckArgs(process.argv.slice(2), process.env, process.cwd())
  if (args.kind === 'help') {
    process.stdout.write(USAGE)
    return 0
  }
  if (args.kind === 'error') {
    process.stderr.write(`${args.message}\n\n${USAGE}`)
    return 2
  }
  const opened = await openData(await dataDirOf(args.dataDir), args.table)
  if (typeof opened === 'string') {
    process.stderr.write(`store-check: ${opened}\n`)
    return 2
  }
  try {
    const report = await check(opened)
    process.stdout.write(args.json ? `${JSON.stringify(report, null, 2)}\n` : renderReport(report))
    return report.findings.length === 0 ? 0 : 1
  } finally {
    await opened.close()
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`store-check: ${err instanceof Error ? err.message : String(err)}\n`)
    process.exit(2)
  }
)
