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
 * list, or read a second time, is read on its own. Manifests are read ahead for their content
 * (ProjectionStore `getManifestContents`): a member holding every copy through its shared manifest
 * comes without its own body, `viaShared`, which is all a run that finds nothing to write needs
 * (reconcile.ts); a run that may write reads it again in full (`readFull`), the full reads asked
 * in one turn of the event loop together. The requests of a chunk, and of a turn's full reads, are
 * charged in equal shares to the runs that take them.
 */
import { chargeScopes, measuredApart, measuringScopes } from '../../lib/budget/frames.ts'
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
  /** The manifest's entries are its shared manifest's: read it in full before planning a write. */
  viaShared: boolean
}

export type MailboxReads = {
  /** The mailbox space of a key (`<inventory space id>-mb-<uid>`) and, when Ready, its manifest. */
  read(key: string): Promise<MailboxRead>
  /** A mailbox's manifest in full (with the other full reads of the same turn). */
  readFull(mailboxId: string): Promise<Manifest | undefined>
}

export type MailboxReadDeps = {
  kv: KvStore
  projections: Pick<ProjectionStore, 'getManifests' | 'getManifestContents'>
}

type Contents = Map<string, { manifest: Manifest; viaShared: boolean }>

async function readChunk(deps: MailboxReadDeps, keys: readonly string[]) {
  const spaces = await getSpacesByPath(deps.kv, keys.map(mailboxSpacePath))
  const ready = [...spaces.values()].filter((s) => s.phase === 'Ready').map((s) => s.id)
  const none = ready.length === 0
  const [manifests, memories] = await Promise.all([
    none ? (new Map() as Contents) : deps.projections.getManifestContents(ready),
    none ? new Map<string, KvEntry<Memory>>() : deps.kv.getMany<Memory>(VERSION_MEMORY_NS, ready),
  ])
  return new Map(
    keys.map((key): [string, MailboxRead] => {
      const space = spaces.get(mailboxSpacePath(key))
      const id = space?.id
      const read = id === undefined ? undefined : manifests.get(id)
      const memory = id === undefined ? undefined : memories.get(id)
      return [key, { space, manifest: read?.manifest, memory, viaShared: read?.viaShared ?? false }]
    })
  )
}

/** A read-ahead's result for one key, and its share of the requests of its chunk. */
type Ahead = Promise<{ read: MailboxRead; share: number }>

export function mailboxReads(
  deps: MailboxReadDeps,
  keys: readonly string[],
  chunk = WAVE
): MailboxReads {
  const order = new Map(keys.map((k, i) => [k, i]))
  // Full reads asked in one turn of the event loop go out together (the runs of a wave ask at
  // about the same time), each asking run charged its share (lib/budget/frames.ts).
  type Asked = {
    id: string
    scopes: ReturnType<typeof measuringScopes>
    resolve: (m: Manifest | undefined) => void
    reject: (e: unknown) => void
  }
  let full: Asked[] = []
  const flushFull = () => {
    const asked = full
    full = []
    const ids = asked.map((a) => a.id)
    measuredApart(() => deps.projections.getManifests(ids)).then(
      ({ value, used }) => {
        for (const a of asked) {
          chargeScopes(a.scopes, used / asked.length)
          a.resolve(value.get(a.id))
        }
      },
      (e) => {
        for (const a of asked) a.reject(e)
      }
    )
  }
  const ahead = new Map<string, Ahead>()
  const started = new Set<string>()
  // A chunk's requests are charged in shares to the runs that take its reads, not all to the
  // run that happened to start it (the pacer reads what a run costs from its share).
  const loadFrom = (at: number) => {
    const todo = keys
      .slice(at)
      .filter((k) => !started.has(k))
      .slice(0, chunk)
    for (const k of todo) started.add(k)
    const reading = measuredApart(() => readChunk(deps, todo))
    for (const k of todo) {
      const one = reading.then(({ value, used }) => ({
        read: value.get(k) as MailboxRead,
        share: used / todo.length,
      }))
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
        return hit.then(({ read, share }) => {
          chargeScopes(measuringScopes(), share)
          return read
        })
      }
      return readChunk(deps, [key]).then((m) => m.get(key) as MailboxRead)
    },
    readFull(id) {
      return new Promise((resolve, reject) => {
        if (full.length === 0) setTimeout(flushFull, 0)
        full.push({ id, scopes: measuringScopes(), resolve, reject })
      })
    },
  }
}
