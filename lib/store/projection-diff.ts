/**
 * The pure part of a manifest write: compare what the translator wants (entries with their body
 * and spec hashes) with the stored entries, decide whether anything changes, and, once a
 * resourceVersion has been taken, build the new entries and the change list. An entry is unchanged
 * when its body hash, version and `removing` (tombstone time) are; a changed entry keeps its uid and
 * creation time and bumps its generation only when its spec hash changed (so turning a copy into a
 * tombstone, or reviving one, changes its rv but not its generation); a new entry gets a fresh uid
 * and generation 1. Every added or changed entry, and every removed one in the change list, carries
 * the write's rv. `sources` is bookkeeping: an otherwise unchanged entry whose sources differ is
 * rewritten with the new sources but keeps its rv and is not in the change list (`resourced`).
 */
import { badRequest } from '../errors.ts'
import { canonicalJson } from '../patch/json-values.ts'
import type { ProjectionChange } from './projection-codec.ts'
import type { ManifestEntry } from './projection-types.ts'

/** A desired entry with its hashes, before the write stamps it. */
export type WantedEntry = Pick<
  ManifestEntry,
  | 'group'
  | 'version'
  | 'resource'
  | 'namespace'
  | 'name'
  | 'hash'
  | 'specHash'
  | 'removing'
  | 'sources'
>

type KeyParts = Pick<ManifestEntry, 'group' | 'resource' | 'namespace' | 'name'>

/** Orders entries by group, resource, namespace, name. */
export function compareEntryKeys(a: KeyParts, b: KeyParts): number {
  for (const part of ['group', 'resource', 'namespace', 'name'] as const) {
    if (a[part] !== b[part]) return a[part] < b[part] ? -1 : 1
  }
  return 0
}

export const entryKey = (e: KeyParts) => `${e.group}/${e.resource}/${e.namespace}/${e.name}`

export type ManifestPlan = {
  items: { want: WantedEntry; old: ManifestEntry | undefined; same: boolean }[]
  removed: ManifestEntry[]
  added: number
  changed: number
  /** Unchanged entries whose sources differ (written, not logged). */
  resourced: number
}

const sourcesText = (e: Pick<ManifestEntry, 'sources'>) =>
  e.sources?.length ? canonicalJson(e.sources) : ''

/** Pairs wanted entries with stored ones; BadRequest when a key is wanted twice. */
export function planManifest(
  current: readonly ManifestEntry[],
  wanted: WantedEntry[]
): ManifestPlan {
  const stored = new Map(current.map((e) => [entryKey(e), e]))
  const seen = new Set<string>()
  const plan: ManifestPlan = { items: [], removed: [], added: 0, changed: 0, resourced: 0 }
  for (const want of [...wanted].sort(compareEntryKeys)) {
    const key = entryKey(want)
    if (seen.has(key)) throw badRequest(`the manifest names ${key} more than once`)
    seen.add(key)
    const old = stored.get(key)
    const same =
      old !== undefined &&
      old.hash === want.hash &&
      old.version === want.version &&
      (old.removing ?? '') === (want.removing ?? '')
    if (!old) plan.added++
    else if (!same) plan.changed++
    else if (sourcesText(old) !== sourcesText(want)) plan.resourced++
    plan.items.push({ want, old, same })
  }
  plan.removed = current.filter((e) => !seen.has(entryKey(e)))
  return plan
}

/** Changes of copies (logged); `resourced` entries need a write too, but no event. */
export const planChanges = (p: ManifestPlan) => p.added + p.changed + p.removed.length

/** The entry as stored: optional fields only when set. */
function tidy(e: ManifestEntry): ManifestEntry {
  const { removing, sources, ...rest } = e
  return {
    ...rest,
    ...(removing ? { removing } : {}),
    ...(sources?.length ? { sources } : {}),
  }
}

export type Stamp = { rv: number; created: string; uid: () => string }

/** The new entries and the change list of a plan written at `stamp.rv`. */
export function stampManifest(
  plan: ManifestPlan,
  stamp: Stamp
): { entries: ManifestEntry[]; changes: ProjectionChange[] } {
  const entries: ManifestEntry[] = []
  const changes: ProjectionChange[] = []
  for (const { want, old, same } of plan.items) {
    if (old && same) {
      entries.push(tidy({ ...old, sources: want.sources }))
      continue
    }
    const entry: ManifestEntry = old
      ? {
          ...want,
          rv: stamp.rv,
          uid: old.uid,
          created: old.created,
          generation: old.generation + (old.specHash === want.specHash ? 0 : 1),
          ...(old.added !== undefined ? { added: old.added } : {}),
        }
      : {
          ...want,
          rv: stamp.rv,
          uid: stamp.uid(),
          created: stamp.created,
          generation: 1,
          added: stamp.rv,
        }
    entries.push(tidy(entry))
    changes.push({ type: old ? 'MODIFIED' : 'ADDED', entry: tidy(entry) })
  }
  for (const old of plan.removed) changes.push({ type: 'DELETED', entry: { ...old, rv: stamp.rv } })
  return { entries, changes }
}
