/**
 * The version-choice memory of the translate step (seed 003: "sticks with its previous decision"),
 * kept in the key-value store so stateless invocations, restarts and deployments keep it: one item
 * per mailbox (ns `translate-versions`, key the mailbox space id, value `{group: version}`), read
 * at most once per mailbox translation and written only when a choice changes, with the item's
 * version as precondition (a concurrent translator makes it fail with Conflict and the key is
 * retried). Groups no longer sent stay remembered, as the seed's process would remember them.
 * It is written before the manifest, so the manifest never holds a version the memory lacks.
 * The read is skipped when memory cannot matter and already agrees: every group has exactly one
 * candidate version AND the mailbox's previous manifest holds that group's copies at exactly that
 * version. Every translation that committed copies of a group at version v first made the memory
 * say v (or skipped because it already did), so the manifest is a faithful witness of the memory
 * for the groups it holds; a group the manifest lacks is read and, if needed, written. So a
 * steady mailbox fed by one workspace (the fan-out case) costs nothing here. For the same reason a
 * group the memory lacks (a manifest written before the memory existed) is remembered at the
 * version the manifest holds its copies at.
 */
import type { Manifest } from '../../lib/store/projection-types.ts'
import type { KvEntry, KvStore } from '../../lib/store/types.ts'
import { chooseVersion } from './version-choice.ts'

export const VERSION_MEMORY_NS = 'translate-versions'

export type Memory = Record<string, string>

/** Per group, the versions the previous manifest's copies of that group are at. */
export type ManifestVersions = ReadonlyMap<string, ReadonlySet<string>>

/** The versions of the manifest's copies, per group. */
export function manifestVersions(manifest: Manifest | undefined): ManifestVersions {
  const out = new Map<string, Set<string>>()
  for (const e of manifest?.entries ?? []) {
    const at = out.get(e.group) ?? new Set<string>()
    at.add(e.version)
    out.set(e.group, at)
  }
  return out
}

/** The single version a group's copies are at, if they are all at one. */
const onlyVersion = (at: ReadonlySet<string> | undefined) =>
  at && at.size === 1 ? [...at][0] : undefined

function canSkip(candidates: ReadonlyMap<string, readonly string[]>, seen: ManifestVersions) {
  for (const [group, list] of candidates) {
    const at = seen.get(group)
    if (list.length !== 1 || !at || at.size !== 1 || !at.has(list[0] as string)) return false
  }
  return true
}

/** A mailbox's stored memory item, absent when it has none. */
export type StoredMemory = KvEntry<Memory> | undefined

/**
 * The chosen version per group (the keys of `candidates`), remembering what changed; `seen` is
 * what the previous manifest holds. `read`, when given, supplies the memory item instead of a
 * read of its own (the batch read it ahead,
 * mailbox-reads.ts); the write's precondition is its version either way.
 */
export async function chooseVersions(
  kv: KvStore,
  mailboxId: string,
  candidates: ReadonlyMap<string, readonly string[]>,
  known: { seen: ManifestVersions; read?: () => Promise<StoredMemory> }
): Promise<Map<string, string>> {
  const { seen } = known
  const read = known.read ?? (() => kv.get<Memory>(VERSION_MEMORY_NS, mailboxId))
  const choices = new Map<string, string>()
  if (canSkip(candidates, seen)) {
    for (const [group, list] of candidates) choices.set(group, list[0] as string)
    return choices
  }
  const stored = await read()
  const memory: Memory = { ...(stored?.value ?? {}) }
  let changed = false
  for (const [group, list] of candidates) {
    const version = chooseVersion(list, memory[group] ?? onlyVersion(seen.get(group)))
    choices.set(group, version)
    if (memory[group] !== version) {
      memory[group] = version
      changed = true
    }
  }
  if (changed) await kv.put(VERSION_MEMORY_NS, mailboxId, memory, stored ? stored.version : null)
  return choices
}
