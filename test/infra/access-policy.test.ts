/**
 * The IAM policies grant exactly what the code sends. The Worker's actions are the DynamoDB
 * `*Command`s constructed in the modules reachable from functions/index.ts (following relative
 * imports, type-only ones excluded), its index actions those of the reachable modules that name
 * an index; the relay's are the requests its cursor store makes against dynalite, all on the
 * cursor partition. A command added to the store code fails here until the policy grows.
 */
import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  RELAY_LEADING_KEYS,
  RELAY_TABLE_ACTIONS,
  WORKER_INDEX_ACTIONS,
  WORKER_TABLE_ACTIONS,
} from '../../infra/access-policy.ts'
import { REPO_ROOT } from '../../infra/repo-root.ts'
import { createKvCursorStore } from '../../lib/relay/cursor.ts'
import type { FaultCall } from '../../lib/store/dynamo-client.ts'
import { createTestStore, type TestStore } from '../helpers/dynalite.ts'

/** Every module reachable from `entry` through relative value imports (and `import()`). */
function reachable(entry: string): Map<string, string> {
  const seen = new Map<string, string>()
  const queue = [resolve(REPO_ROOT, entry)]
  const specifier =
    /(?:^|\n)\s*(?:import|export)\s+(?!type\s)(?:[^'"]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]|\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g
  for (let file = queue.pop(); file; file = queue.pop()) {
    if (seen.has(file)) continue
    const text = readFileSync(file, 'utf8')
    seen.set(file, text)
    for (const m of text.matchAll(specifier)) {
      const target = m[1] ?? m[2]
      if (target) queue.push(resolve(dirname(file), target))
    }
  }
  return seen
}

/** The DynamoDB operations (`PutItem`...) constructed as `new <Op>Command(` in `text`. */
const commandsIn = (text: string) =>
  [...text.matchAll(/\bnew\s+([A-Z]\w*)Command\s*\(/g)].map((m) => m[1] ?? '')

const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort()

describe("the Worker's policy", () => {
  const modules = reachable('functions/index.ts')

  it('walks the Worker from its entry into the store', () => {
    const files = [...modules.keys()].map((f) => f.slice(REPO_ROOT.length + 1))
    expect(files).toContain('lib/store/dynamo-store.ts')
    expect(files).toContain('lib/store/kv-store.ts')
    // Table management is not the Worker's: the table comes from CloudFormation.
    expect(files).not.toContain('lib/store/ensure-table.ts')
  })

  it('grants on the table exactly the commands the reachable code sends', () => {
    const sent = sorted([...modules.values()].flatMap(commandsIn))
    expect(sent.length).toBeGreaterThan(3)
    expect(sorted(WORKER_TABLE_ACTIONS)).toEqual(sent)
  })

  it('grants on the index exactly the commands of the modules that name an index', () => {
    const onIndex = [...modules.values()]
      .filter((text) => /\bIndexName\s*:/.test(text))
      .flatMap(commandsIn)
      .filter((op) => op === 'Query' || op === 'Scan')
    expect(sorted(WORKER_INDEX_ACTIONS)).toEqual(sorted(onIndex))
  })

  it('would see a new command', () => {
    expect(commandsIn('await c.send(new TransactWriteItemsCommand({}))')).toEqual([
      'TransactWriteItems',
    ])
    const dir = join(REPO_ROOT, 'lib', 'store')
    expect(reachable('lib/store/kv-store.ts').has(join(dir, 'keys.ts'))).toBe(true)
  })
})

describe("the relay's policy", () => {
  let store: TestStore
  let recording = false
  const calls: FaultCall[] = []

  beforeAll(async () => {
    store = await createTestStore({
      fault: (call) => {
        if (recording && call.phase === 'before') calls.push(call)
      },
    })
  })
  afterAll(async () => {
    await store?.close()
  })

  it('grants exactly what its cursor store sends, on the cursor partition only', async () => {
    recording = true
    const cursors = createKvCursorStore(store.kv)
    expect(await cursors.load('configmaps')).toBeUndefined()
    await cursors.save('configmaps', '10')
    await cursors.save('configmaps', '12')
    expect(await cursors.load('configmaps')).toBe('12')
    recording = false
    expect(sorted(calls.map((c) => c.op))).toEqual(sorted(RELAY_TABLE_ACTIONS))
    const pks = calls.map((c) => (c.input as { Key?: { pk?: { S?: string } } }).Key?.pk?.S)
    expect(sorted(pks.map(String))).toEqual(sorted(RELAY_LEADING_KEYS))
  })
})
