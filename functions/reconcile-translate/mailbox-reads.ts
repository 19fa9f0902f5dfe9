/**
 * The per-mailbox reads of a translate batch, read ahead in chunks: the first run of a chunk of
 * the batch's keys reads the mailbox spaces of the whole chunk (one key-value BatchGetItem) and
 * then their manifests and version-choice memories (one BatchGetItem each), where each run read
 * its own space and manifest (two GetItems per mailbox) and, whenever a group's version could
 * depend on it, its memory (a third). The memory's write keeps its own precondition, as the
 * manifest's does. A chunk is one wave of the step's concurrency (WAVE keys), so what it
 * read is at most one wave of runs old when a run plans from it: far younger than the batch's
 * snapshot of the placements and workloads the run plans with. The manifest write's precondition
 * still guards it: a run whose write meets a Conflict runs again (controller.ts) and then reads
 * afresh, as a read-ahead serves one read only, so reading ahead never turns a stale read into a
 * failure. What a read ahead can hide is the same as for any read: a run that finds its content
 * already written writes nothing, even if another writer changed the manifest since; the event
 * or the resync that follows any input change runs the key again. A key outside the batch's
 * list, or read a second time, is read on its own.
 */
import { getSpacesByPath, type Space } from '../../lib/hub/spaces.ts'
import { mailboxSpacePath } from '../../lib/reconcile/keys.ts'
import type { Manifest, ProjectionStore } from '../../lib/store/projection-types.ts'
import type { KvEntry, KvStore } from '../../lib/store/types.ts'
import { type Memory, type StoredMemory, VERSION_MEMORY_NS } from './version-memory.ts'

/**
 * Keys read ahead together, and the step's concurrency: the runs of one wave read together and
 * commit together (manifest-commits.ts), so the requests they share cost about 1/WAVE each.
 */
export const WAVE = 96

export type MailboxRead = {
  space: Space | undefined
  manifest: Manifest | undefined
  /** The mailbox's version-choice memory item (version-memory.ts). */
  memory: StoredMemory
}

export type MailboxReads = {
  /** The mailbox space of a key (`<inventory space id>-mb-<uid>`) and, when Ready, its manifest. */
  read(key: string): Promise<MailboxRead>
}

export type MailboxReadDeps = { kv: KvStore; projections: Pick<ProjectionStore, 'getManifests'> }

async function readChunk(deps: MailboxReadDeps, keys: readonly string[]) {
  const spaces = await getSpacesByPath(deps.kv, keys.map(mailboxSpacePath))
  const ready = [...spaces.values()].filter((s) => s.phase === 'Ready').map((s) => s.id)
  const none = ready.length === 0
  const [manifests, memories] = await Promise.all([
    none ? new Map<string, Manifest>() : deps.projections.getManifests(ready),
    none ? new Map<string, KvEntry<Memory>>() : deps.kv.getMany<Memory>(VERSION_MEMORY_NS, ready),
  ])
  return new Map(
    keys.map((key): [string, MailboxRead] => {
      const space = spaces.get(mailboxSpacePath(key))
      const id = space?.id
      const manifest = id === undefined ? undefined : manifests.get(id)
      return [key, { space, manifest, memory: id === undefined ? undefined : memories.get(id) }]
    })
  )
}

export function mailboxReads(
  deps: MailboxReadDeps,
  keys: readonly string[],
  chunk = WAVE
): MailboxReads {
  const order = new Map(keys.map((k, i) => [k, i]))
  const ahead = new Map<string, Promise<MailboxRead>>()
  const started = new Set<string>()
  const loadFrom = (at: number) => {
    const todo = keys
      .slice(at)
      .filter((k) => !started.has(k))
      .slice(0, chunk)
    for (const k of todo) started.add(k)
    const reading = readChunk(deps, todo)
    for (const k of todo) {
      const one = reading.then((m) => m.get(k) as MailboxRead)
      one.catch(() => undefined)
      ahead.set(k, one)
    }
  }
  return {
    read(key) {
      const at = order.get(key)
      if (at !== undefined && !started.has(key)) loadFrom(at)
      const hit = ahead.get(key)
      if (hit) {
        ahead.delete(key)
        return hit
      }
      return readChunk(deps, [key]).then((m) => m.get(key) as MailboxRead)
    },
  }
}
