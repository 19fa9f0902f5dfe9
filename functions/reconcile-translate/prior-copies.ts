/**
 * A translate run's previous copies: its manifest's entries with their bodies (from the store's
 * body cache) and their text in the content key (shared-content.ts `copiesText`). The members of
 * a shared manifest read ahead together hold one entries list, their shared manifest's
 * (lib/store/projection-manifest-content.ts), so this is worked out once per list, not once per
 * member: a fleet-wide change of 10,000 members asked for each one's 20 bodies and built each
 * one's 2 KB key text. A list is never changed once read, so it is the memo's key (weakly: the
 * memo lives as long as the runs holding the list); a failed read is not remembered.
 */
import type { KubeObject } from '../../lib/kube/types.ts'
import { perObject } from '../../lib/store/per-store.ts'
import { entryKey } from '../../lib/store/projection-diff.ts'
import type { ManifestEntry, ProjectionStore } from '../../lib/store/projection-types.ts'
import type { Previous } from './desired.ts'
import { copiesText } from './shared-content.ts'

export type PriorCopies = {
  bodies: Map<string, KubeObject>
  previous: Previous[]
  /** `copiesText(previous)`. */
  copies: string
}

type Entries = readonly ManifestEntry[]

const priors = new WeakMap<Entries, Promise<PriorCopies>>()
const NONE: Entries = []

async function readPrior(
  projections: Pick<ProjectionStore, 'getBodies'>,
  entries: Entries
): Promise<PriorCopies> {
  const bodies =
    entries.length > 0 ? await projections.getBodies(entries.map((e) => e.hash)) : new Map()
  const previous = entries.map((entry) => ({ entry, body: bodies.get(entry.hash) }))
  return { bodies, previous, copies: copiesText(previous) }
}

/** The previous copies of a manifest's entries (none without a manifest). */
export function priorCopies(
  projections: Pick<ProjectionStore, 'getBodies'>,
  entries: Entries | undefined
): Promise<PriorCopies> {
  const list = entries ?? NONE
  let hit = priors.get(list)
  if (!hit) {
    hit = readPrior(projections, list)
    priors.set(list, hit)
    hit.catch(() => priors.delete(list))
  }
  return hit
}

type Keyed = Pick<ManifestEntry, 'group' | 'resource' | 'namespace' | 'name' | 'removing'>

/** The keys of a list's live copies, sorted (once per list). */
const live = perObject((list: readonly Keyed[]) =>
  list
    .filter((e) => !e.removing)
    .map(entryKey)
    .sort()
)

/** Whether two entry lists hold live copies at the same keys. */
export function sameCopies(a: readonly Keyed[], b: readonly Keyed[]): boolean {
  if (a === b) return true
  const [x, y] = [live(a), live(b)]
  return x.length === y.length && x.every((k, i) => k === y[i])
}
