/**
 * The EdgePlacements of every space, as the relay needs them: every SyncTarget and Location event
 * wakes the where key of every placement (a relabel can change any selection), and listing them
 * over the hub for each event was two cross-space lists per registered edge — through `npm
 * start`, a registration of 1,000 edges made 2,000 lists. Here a list is read at most once per
 * `maxAgeMs` (one read at a time; callers meanwhile wait for it) and kept current in between by
 * the relay's own EdgePlacement watch events (`observe`): an event that arrives while a list is
 * being read is applied on top of it when it comes. What a cached list can miss is a placement
 * whose event the relay has not received yet; that event wakes the placement's own where key when
 * it arrives, and its run reads the SyncTargets and Locations as they are then. A failed read
 * fails its callers (as the list did) and is tried again by the next one.
 */
import type { KubeObject } from '../kube/types.ts'
import { whereKeyOf } from '../reconcile/keys.ts'

export type PlacementList = {
  /** Every EdgePlacement known (each with its kcp.io/cluster annotation). */
  list(): Promise<KubeObject[]>
  /** Applies an EdgePlacement watch event (ADDED, MODIFIED, DELETED). */
  observe(type: string, obj: KubeObject): void
}

/** How long a list read serves before the next caller reads again (ms). */
export const PLACEMENT_LIST_MAX_AGE_MS = 10_000

type Seen = { type: string; obj: KubeObject }

function apply(byKey: Map<string, KubeObject>, { type, obj }: Seen): void {
  const key = whereKeyOf(obj)
  if (!key) return
  if (type === 'DELETED') byKey.delete(key)
  else byKey.set(key, obj)
}

export function createPlacementList(
  read: () => Promise<KubeObject[]>,
  opts: { maxAgeMs?: number; now?: () => number } = {}
): PlacementList {
  const maxAgeMs = opts.maxAgeMs ?? PLACEMENT_LIST_MAX_AGE_MS
  const now = opts.now ?? Date.now
  let known: { at: number; byKey: Map<string, KubeObject> } | undefined
  let reading: { done: Promise<Map<string, KubeObject>>; seen: Seen[] } | undefined

  const start = () => {
    const at = now()
    const seen: Seen[] = []
    const done = read().then(
      (items) => {
        const byKey = new Map<string, KubeObject>()
        for (const obj of items) apply(byKey, { type: 'ADDED', obj })
        for (const s of seen) apply(byKey, s)
        known = { at, byKey }
        reading = undefined
        return byKey
      },
      (e: unknown) => {
        reading = undefined
        throw e
      }
    )
    reading = { done, seen }
    return done
  }

  return {
    async list() {
      const t = now()
      if (known && t - known.at < maxAgeMs && t >= known.at) return [...known.byKey.values()]
      return [...(await (reading?.done ?? start())).values()]
    },
    observe(type, obj) {
      if (!['ADDED', 'MODIFIED', 'DELETED'].includes(type)) return
      if (known) apply(known.byKey, { type, obj })
      reading?.seen.push({ type, obj })
    },
  }
}
