/**
 * The layout of the ownership record in the edge cluster (pure; owned-keeper.ts does the I/O).
 * The record is one or more ConfigMaps in the agent's namespace, the shards `<name>-0`,
 * `<name>-1`, ..., labelled `edge.kcp.io/agent-record: <name>`, each holding under `objects` the
 * JSON of its entries (key → OwnedRecord, ownership.ts), keys sorted.
 *
 * A ConfigMap holds at most 1 MiB, so entries are spread over shards, and a key stays in one
 * shard for as long as it is recorded: no write ever moves an entry, so no crash between two
 * writes can leave a key in two shards, or in none. A new key goes into the first shard whose
 * reservation leaves room for it, else into a new shard. Its reservation is a bound on the size
 * its entry can reach (the key's names at most three times — key, ref fields, a CRD's group —
 * plus room for version, uid, hashes, flags and eight generation pairs, all as stored: a JSON
 * string, its quotes escaped), so a shard filled to its budget stays under the ConfigMap limit
 * however its entries change. A shard that empties stays
 * (it is reused); the agent never deletes one.
 *
 * A save writes only the shards whose content changed. A shard that cannot be parsed makes the
 * whole record unreadable: the caller waits and retries, and neither prunes nor adopts on a
 * guess. The same key in two shards (someone edited the record) is kept from the lower shard;
 * the next write of the other drops it there.
 */
import { z } from 'zod'
import type { KubeObject } from '../kube/types.ts'
import { type Owned, type OwnedRecord, OwnedRecordSchema } from './ownership.ts'

export const RECORD_LABEL = 'edge.kcp.io/agent-record'
/** Bytes of reservations per shard. */
export const SHARD_BUDGET = 768 * 1024
/**
 * A shard's `objects` text, as a JSON string in the ConfigMap (its quotes escaped), may not
 * exceed this: kube caps a ConfigMap's data at 1 MiB, and API servers storing whole objects as
 * JSON (the hub, etcd's request limit) count the escaped form.
 */
export const SHARD_MAX_BYTES = 1_000_000
const ENTRY_ROOM = 1024

export type Shard = {
  index: number
  /** resourceVersion of the ConfigMap as last read or written; undefined: not created yet. */
  rv?: string
  /** `objects` as the cluster holds it ('' for a shard not created yet). */
  text: string
  /** Keys of `text`. */
  keys: Set<string>
}

export type Layout = {
  shards: Map<number, Shard>
  /** The shard of each key recorded, or placed for the next write. */
  home: Map<string, number>
}

export type ShardWrite = { index: number; text: string; entries: string[]; rv?: string }

export class RecordUnreadable extends Error {
  override name = 'RecordUnreadable'
}

export const shardName = (base: string, index: number) => `${base}-${index}`

export const reserveOf = (key: string): number => 3 * JSON.stringify(key).length + ENTRY_ROOM

/** Bytes of `objects` text as it is stored: a JSON string value. */
export const storedBytes = (text: string): number => Buffer.byteLength(JSON.stringify(text))

const ObjectsSchema = z.record(z.string(), OwnedRecordSchema)

export const entriesText = (entries: Iterable<[string, OwnedRecord]>): string =>
  JSON.stringify(Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : 1))))

const emptyLayout = (): Layout => ({ shards: new Map(), home: new Map() })

/** The shard index of a ConfigMap of record `base`, or undefined when it is not one. */
export function shardIndexOf(base: string, name: string | undefined): number | undefined {
  if (!name?.startsWith(`${base}-`)) return undefined
  const rest = name.slice(base.length + 1)
  return /^(0|[1-9]\d{0,5})$/.test(rest) ? Number(rest) : undefined
}

export type ParsedRecord = { owned: Owned; layout: Layout; duplicates: string[] }

/** The record from the ConfigMaps of the agent's namespace (others are ignored). */
export function parseShards(base: string, items: readonly KubeObject[]): ParsedRecord {
  const found = items
    .map((cm) => ({ cm, index: shardIndexOf(base, cm.metadata.name) }))
    .filter((x): x is { cm: KubeObject; index: number } => x.index !== undefined)
    .sort((a, b) => a.index - b.index)
  const owned: Owned = new Map()
  const layout = emptyLayout()
  const duplicates: string[] = []
  for (const { cm, index } of found) {
    const entries = parseObjects(cm)
    const shard: Shard = { index, text: entriesText(entries), keys: new Set(entries.keys()) }
    if (cm.metadata.resourceVersion) shard.rv = cm.metadata.resourceVersion
    layout.shards.set(index, shard)
    for (const [key, rec] of entries) {
      if (owned.has(key)) {
        duplicates.push(key)
        continue
      }
      owned.set(key, rec)
      layout.home.set(key, index)
    }
  }
  return { owned, layout, duplicates }
}

function parseObjects(cm: KubeObject): Map<string, OwnedRecord> {
  const where = `ConfigMap ${cm.metadata.namespace}/${cm.metadata.name}`
  const data = cm.data as Record<string, unknown> | undefined
  const text = data?.objects
  if (typeof text !== 'string') throw new RecordUnreadable(`${where} has no data.objects`)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    throw new RecordUnreadable(`${where}: ${e instanceof Error ? e.message : String(e)}`)
  }
  const parsed = ObjectsSchema.safeParse(value)
  if (!parsed.success) throw new RecordUnreadable(`${where}: ${parsed.error.message.slice(0, 500)}`)
  return new Map(Object.entries(parsed.data))
}

/**
 * Places the keys of `owned` that have no shard yet (recorded in `layout.home`): the first shard
 * whose reservations leave room, else a new one. A key whose removal has not been written yet
 * still holds its room.
 */
function placeNewKeys(layout: Layout, owned: Owned, budget: number): void {
  for (const [key, index] of layout.home)
    if (!owned.has(key) && !layout.shards.get(index)?.keys.has(key)) layout.home.delete(key)
  const used = new Map<number, number>()
  for (const [key, index] of layout.home) used.set(index, (used.get(index) ?? 0) + reserveOf(key))
  for (const key of [...owned.keys()].sort()) {
    if (layout.home.has(key)) continue
    const need = reserveOf(key)
    const indexes = [...layout.shards.keys()].sort((a, b) => a - b)
    let index = indexes.find((i) => (used.get(i) ?? 0) + need <= budget)
    if (index === undefined) {
      index = 0
      while (layout.shards.has(index)) index += 1
      layout.shards.set(index, { index, text: '', keys: new Set() })
    }
    layout.home.set(key, index)
    used.set(index, (used.get(index) ?? 0) + need)
  }
}

/**
 * The shard writes that make the cluster hold `owned` (new keys placed first): every shard whose
 * content would change, lowest first.
 */
export function planWrites(layout: Layout, owned: Owned, budget = SHARD_BUDGET): ShardWrite[] {
  placeNewKeys(layout, owned, budget)
  const byShard = new Map<number, [string, OwnedRecord][]>()
  for (const [key, rec] of owned) {
    const index = layout.home.get(key) as number
    const list = byShard.get(index)
    if (list) list.push([key, rec])
    else byShard.set(index, [[key, rec]])
  }
  const writes: ShardWrite[] = []
  for (const shard of [...layout.shards.values()].sort((a, b) => a.index - b.index)) {
    const entries = byShard.get(shard.index) ?? []
    if (shard.rv === undefined && entries.length === 0) continue
    const text = entriesText(entries)
    if (text === shard.text) continue
    if (storedBytes(text) > SHARD_MAX_BYTES)
      throw new Error(`ownership record shard ${shard.index} would exceed ${SHARD_MAX_BYTES} bytes`)
    const w: ShardWrite = { index: shard.index, text, entries: entries.map(([k]) => k) }
    if (shard.rv !== undefined) w.rv = shard.rv
    writes.push(w)
  }
  return writes
}

/** Records a write the cluster accepted (its new resourceVersion). */
export function confirmWrite(layout: Layout, owned: Owned, w: ShardWrite, rv: string): void {
  const shard = layout.shards.get(w.index)
  if (!shard) return
  shard.rv = rv
  shard.text = w.text
  shard.keys = new Set(w.entries)
  for (const [key, index] of layout.home)
    if (index === w.index && !owned.has(key) && !shard.keys.has(key)) layout.home.delete(key)
}

/** The ConfigMap of a shard write (resourceVersion set: an update with that precondition). */
export function shardConfigMap(base: string, namespace: string, w: ShardWrite): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: shardName(base, w.index),
      namespace,
      labels: { [RECORD_LABEL]: base },
      ...(w.rv !== undefined ? { resourceVersion: w.rv } : {}),
    },
    data: { objects: w.text },
  }
}
