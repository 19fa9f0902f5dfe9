/**
 * The version-choice memory of the translate step (seed 003: "sticks with its previous decision"),
 * kept in the key-value store so stateless invocations, restarts and deployments keep it: one item
 * per mailbox (ns `translate-versions`, key the mailbox space id, value `{group: version}`), read
 * at most once per mailbox translation and written only when the mailbox's manifest cannot stand
 * for it, with the item's version as precondition (a concurrent translator makes it fail with
 * Conflict and the key is retried). Groups no longer sent stay remembered, as the seed's process
 * would remember them.
 * The manifest is half of the memory: every live copy of a group is at the version chosen for the
 * group, so for a group the item lacks, the version its live copies are at is the remembered one.
 * The invariant, kept by every translation: for each group with live copies at version v, the item
 * says v or lacks the group. So the item is written only when a choice changes a version it
 * holds, when a chosen group would not be witnessed by the manifest being written (no live copy
 * of it lands), or when a group the item lacks leaves the manifest (its version is remembered
 * then, before the witness goes). Placing a workload on a fresh mailbox (the fan-out) writes
 * nothing here.
 * The read is skipped when memory cannot matter and already agrees: every group has exactly one
 * candidate version, the mailbox's previous manifest holds that group's live copies at exactly
 * that version, and no group with live copies is leaving. If the copies then do not land, the
 * item is read after all before anything is written.
 */
import type { Manifest } from '../../lib/store/projection-types.ts'
import type { KvEntry, KvStore } from '../../lib/store/types.ts'
import { chooseVersion } from './version-choice.ts'

export const VERSION_MEMORY_NS = 'translate-versions'

export type Memory = Record<string, string>

/** Per group, the versions the live copies (not tombstones) of that group are at. */
export type ManifestVersions = ReadonlyMap<string, ReadonlySet<string>>

/** The versions of the live copies (entries without `removing`), per group. */
export function liveVersions(
  entries: readonly { group: string; version: string; removing?: string }[]
): ManifestVersions {
  const out = new Map<string, Set<string>>()
  for (const e of entries) {
    if (e.removing !== undefined) continue
    const at = out.get(e.group) ?? new Set<string>()
    at.add(e.version)
    out.set(e.group, at)
  }
  return out
}

/** The versions of a manifest's live copies, per group. */
export const manifestVersions = (manifest: Manifest | undefined): ManifestVersions =>
  liveVersions(manifest?.entries ?? [])

/** The single version a group's copies are at, if they are all at one. */
const onlyVersion = (at: ReadonlySet<string> | undefined) =>
  at && at.size === 1 ? [...at][0] : undefined

/**
 * What the mailbox remembers per group: the item's versions, and for the groups it lacks, the
 * version the manifest's live copies are at (when they are all at one).
 */
export function rememberedVersions(item: Memory | undefined, seen: ManifestVersions): Memory {
  const out: Memory = {}
  for (const [group, at] of seen) {
    const version = onlyVersion(at)
    if (version !== undefined) out[group] = version
  }
  return { ...out, ...(item ?? {}) }
}

/** Every group has one candidate the manifest holds, and no group with live copies leaves. */
function canSkip(candidates: ReadonlyMap<string, readonly string[]>, seen: ManifestVersions) {
  for (const [group, list] of candidates) {
    const at = seen.get(group)
    if (list.length !== 1 || !at || at.size !== 1 || !at.has(list[0] as string)) return false
  }
  for (const group of seen.keys()) if (!candidates.has(group)) return false
  return true
}

/** A mailbox's stored memory item, absent when it has none. */
export type StoredMemory = KvEntry<Memory> | undefined

export type VersionChoice = {
  /** The chosen version per group sent. */
  versions: Map<string, string>
  /**
   * Writes the memory where the manifest about to be written cannot stand for it, given the
   * versions of that manifest's live copies per group; call it before writing the manifest.
   */
  remember(live: ManifestVersions): Promise<void>
}

/** The item to store, or undefined when the stored one (with the manifest) already says it all. */
function toStore(
  stored: Memory,
  versions: ReadonlyMap<string, string>,
  seen: ManifestVersions,
  live: ManifestVersions
): Memory | undefined {
  const memory: Memory = { ...stored }
  let changed = false
  for (const [group, version] of versions) {
    if (stored[group] === version) continue
    if (stored[group] === undefined && onlyVersion(live.get(group)) === version) continue
    memory[group] = version
    changed = true
  }
  // A group the item lacks whose live copies all go: remember it before its witness goes.
  for (const [group, at] of seen) {
    const was = onlyVersion(at)
    if (stored[group] !== undefined || versions.has(group) || live.has(group) || !was) continue
    memory[group] = was
    changed = true
  }
  return changed ? memory : undefined
}

/**
 * The chosen version per group (the keys of `candidates`); `seen` is what the previous manifest's
 * live copies hold. `read`, when given, supplies the memory item instead of a read of its own (the
 * batch read it ahead, mailbox-reads.ts); the write's precondition is its version either way.
 */
export async function chooseVersions(
  kv: KvStore,
  mailboxId: string,
  candidates: ReadonlyMap<string, readonly string[]>,
  known: { seen: ManifestVersions; read?: () => Promise<StoredMemory> }
): Promise<VersionChoice> {
  const { seen } = known
  const read = known.read ?? (() => kv.get<Memory>(VERSION_MEMORY_NS, mailboxId))
  const versions = new Map<string, string>()
  let stored: StoredMemory | null = null
  if (canSkip(candidates, seen)) {
    for (const [group, list] of candidates) versions.set(group, list[0] as string)
  } else {
    stored = (await read()) ?? undefined
    const memory = rememberedVersions(stored?.value, seen)
    for (const [group, list] of candidates) versions.set(group, chooseVersion(list, memory[group]))
  }
  return {
    versions,
    async remember(live) {
      // Skipped, and the copies land as they were: the item and the manifest still agree.
      if (stored === null && [...versions].every(([g, v]) => onlyVersion(live.get(g)) === v)) return
      if (stored === null) stored = (await read()) ?? undefined
      const memory = toStore(stored?.value ?? {}, versions, seen, live)
      if (memory) await kv.put(VERSION_MEMORY_NS, mailboxId, memory, stored ? stored.version : null)
    },
  }
}
