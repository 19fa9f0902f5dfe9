/**
 * Compares the change log with the stored objects: every object's last change must be one a watch
 * delivers. Replaying an object's log entries (the ordinary ones; projection and shared-manifest
 * entries are the mailboxes' own and are left out) must end where the store is:
 * - a stored object newer than the watermark must have its own rv as its last entry, not DELETED
 *   (`unlogged-write`: written, and no watch ever hears of it; `logged-ahead`: an entry newer than
 *   the stored object, which no write explains);
 * - an object whose last entry is ADDED or MODIFIED must still be stored (`unlogged-delete`);
 * - a stored object whose last entry is DELETED is `logged-deleted`.
 * An object at or below the watermark may have had its entries swept (sweep.ts); only a later
 * entry can then contradict it. The whole table is scanned, consistently, page by page; meant for
 * a quiet store (a data folder, a test's table), where no write is between its head and its entry.
 */
import { ScanCommand } from '@aws-sdk/client-dynamodb'
import { type Item, optNumber, optString, readNumber, readString } from './attrs.ts'
import type { StoreContext } from './context.ts'
import { readWatermark } from './meta-items.ts'
import { itemObject } from './object-items.ts'
import { isProjectionLogItem } from './projection-log.ts'
import { isSharedId } from './shared-manifest.ts'

export type LogProblem = 'unlogged-write' | 'unlogged-delete' | 'logged-deleted' | 'logged-ahead'

export type LogFinding = {
  problem: LogProblem
  /** The object's collection partition (`o#<cluster>#<group>/<resource>`) and `<namespace>/<name>`. */
  collection: string
  object: string
  /** The stored object's rv, when stored. */
  storedRv?: number
  /** The last entry's rv and type, when there is one. */
  lastEntry?: { rv: number; type: string }
}

export type LogCheckReport = {
  objects: number
  entries: number
  watermark: number
  findings: LogFinding[]
}

type Last = { rv: number; type: string }

const CHANGE_TYPES: readonly string[] = ['ADDED', 'MODIFIED', 'DELETED']

const identity = (collection: string, object: string) => `${collection}\u0000${object}`

async function scanAll(ctx: StoreContext, each: (item: Item) => Promise<void>): Promise<void> {
  let start: Item | undefined
  do {
    const out = await ctx.client.send(
      new ScanCommand({ TableName: ctx.table, ConsistentRead: true, ExclusiveStartKey: start })
    )
    for (const item of out.Items ?? []) await each(item)
    start = out.LastEvaluatedKey
  } while (start)
}

/** The object an ordinary log entry is about, as `[collection, namespace/name]`. */
async function entryObject(ctx: StoreContext, item: Item): Promise<[string, string] | undefined> {
  if (isProjectionLogItem(item) || isSharedId(optString(item, 'cl') ?? '')) return undefined
  // Only changes: a list's resume mark (list-marks.ts, type LIST) sits in the log without a body.
  if (!CHANGE_TYPES.includes(optString(item, 'type') ?? '')) return undefined
  const obj = await itemObject(ctx, item)
  if (!obj) return undefined
  const collection = `o#${readString(item, 'pk').slice(2)}`
  return [collection, `${readString(item, 'ns')}/${obj.metadata.name ?? ''}`]
}

function judge(
  stored: { rv: number } | undefined,
  last: Last | undefined,
  watermark: number
): LogProblem | undefined {
  if (!stored) return last && last.type !== 'DELETED' ? 'unlogged-delete' : undefined
  if (last && last.rv > stored.rv)
    return last.type === 'DELETED' ? 'logged-deleted' : 'logged-ahead'
  if (stored.rv <= watermark) return undefined
  if (!last || last.rv < stored.rv) return 'unlogged-write'
  return last.type === 'DELETED' ? 'logged-deleted' : undefined
}

export async function checkLog(ctx: StoreContext): Promise<LogCheckReport> {
  const heads = new Map<string, { collection: string; object: string; rv: number }>()
  const lasts = new Map<string, { collection: string; object: string; last: Last }>()
  let entries = 0
  await scanAll(ctx, async (item) => {
    const pk = readString(item, 'pk')
    if (pk.startsWith('o#') && optNumber(item, 'rv') !== undefined) {
      const object = readString(item, 'sk')
      heads.set(identity(pk, object), { collection: pk, object, rv: readNumber(item, 'rv') })
      return
    }
    if (!pk.startsWith('l#')) return
    const about = await entryObject(ctx, item)
    if (!about) return
    entries++
    const [collection, object] = about
    const entry = { rv: readNumber(item, 'rv'), type: readString(item, 'type') }
    const id = identity(collection, object)
    const seen = lasts.get(id)
    if (!seen || seen.last.rv < entry.rv) lasts.set(id, { collection, object, last: entry })
  })
  const watermark = await readWatermark(ctx)
  const findings: LogFinding[] = []
  for (const id of new Set([...heads.keys(), ...lasts.keys()])) {
    const head = heads.get(id)
    const logged = lasts.get(id)
    const problem = judge(head, logged?.last, watermark)
    if (!problem) continue
    const where = (head ?? logged) as { collection: string; object: string }
    findings.push({
      problem,
      collection: where.collection,
      object: where.object,
      ...(head ? { storedRv: head.rv } : {}),
      ...(logged ? { lastEntry: logged.last } : {}),
    })
  }
  findings.sort((a, b) =>
    a.collection === b.collection
      ? a.object.localeCompare(b.object)
      : a.collection.localeCompare(b.collection)
  )
  return { objects: heads.size, entries, watermark, findings }
}
