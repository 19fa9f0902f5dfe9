/**
 * The arguments of `npm run store-check`: the data folder (`--data`; without it main.ts finds the
 * local stack's as every CLI does, infra/stack-discovery.ts), the table (`--table`, else
 * TABLE_NAME, else `edgeplane`) and `--json` for a machine-readable report. Checked with zod; a
 * bad or unknown argument is an error with the usage, `--help` asks for the usage alone.
 */
import { resolve } from 'node:path'
import { z } from 'zod'

export const USAGE = `usage: npm run store-check -- [--data DIR] [--table NAME] [--json]

Compares the change log of a local stack's store with its stored objects and reports every
object whose last change no watch would deliver: written but never logged, deleted but never
logged DELETED, logged DELETED but still stored, or logged past its stored version.

  --data DIR    the data folder (default: EDGEPLANE_DATA, else .edgeplane/ of the current
                folder or of the repository, the one holding a stack or a store)
  --table NAME  the table (default: TABLE_NAME, else edgeplane)
  --json        print the report as JSON
  --help        print this

A running stack's store is read through its dynalite (stack.json); a stopped stack's folder is
opened directly. Exits 0 when nothing is found, 1 on findings, 2 on bad arguments or when the
store cannot be read.
`

export type StoreCheckArgs =
  | { kind: 'help' }
  | { kind: 'error'; message: string }
  | { kind: 'check'; dataDir: string | undefined; table: string; json: boolean }

const TableSchema = z.string().min(3).max(255)

export function parseStoreCheckArgs(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  cwd: string
): StoreCheckArgs {
  let data: string | undefined
  let table = env.TABLE_NAME || 'edgeplane'
  let json = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    if (arg === '--help' || arg === '-h') return { kind: 'help' }
    if (arg === '--json') json = true
    else if (arg === '--data' || arg === '--table') {
      const value = argv[++i]
      if (value === undefined || value.startsWith('--'))
        return { kind: 'error', message: `${arg} needs a value` }
      if (arg === '--data') data = value
      else table = value
    } else return { kind: 'error', message: `unknown argument ${arg}` }
  }
  const checked = TableSchema.safeParse(table)
  if (!checked.success) return { kind: 'error', message: `invalid table name "${table}"` }
  return {
    kind: 'check',
    dataDir: data === undefined ? undefined : resolve(cwd, data),
    table,
    json,
  }
}
