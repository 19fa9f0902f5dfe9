/**
 * The Rollouts of a workload space as the dashboard shows them (docs/architecture/dashboard.md,
 * "Rollouts"): one list of the space's Rollouts per view — the one read a Rollout adds to it —
 * each decoded with its zod schema (a stored one that does not decode is shown as invalid and
 * governs nothing here). From that list: what each says of itself (phase, the revision in flight,
 * the completed one, the current wave and its waves in order with their revisions and counts, as
 * the rollout step wrote them); which Rollout governs an object (its selection over the space's
 * snapshot the view already read, the oldest of those selecting it: lib/rollout/governor.ts); and
 * where an edge stands under each (its wave, from its Location's labels: lib/rollout/waves.ts, and
 * the revision the rules say it is due: lib/rollout/hold.ts `destinationRevision`). What a copy
 * holds is never worked out here: cells read it from the stamp of the mailbox's body
 * (cell-revisions.ts). Rollouts being deleted are left out, as translation leaves them.
 */
import { builtinsFrom } from '../../lib/apis/builtins.ts'
import { decodeObject, describeIssues } from '../../lib/apis/decode.ts'
import {
  type RolloutPhase,
  RolloutSchema,
  type RolloutSpec,
  type RolloutStatus,
} from '../../lib/apis/edge-rollout.ts'
import { ROLLOUTS } from '../../lib/apis/gvr.ts'
import { isNotFound } from '../../lib/errors.ts'
import type { Space } from '../../lib/hub/spaces.ts'
import type { Labels } from '../../lib/kube/label-selector.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import type { Destination } from '../../lib/placement/destinations.ts'
import { selectForPlacement } from '../../lib/placement/select.ts'
import type { SourceObject } from '../../lib/placement/types.ts'
import { olderFirst } from '../../lib/rollout/governor.ts'
import { destinationRevision } from '../../lib/rollout/hold.ts'
import { revisionKeyOf } from '../../lib/rollout/revision.ts'
import { waveOf } from '../../lib/rollout/waves.ts'
import type { EdgeItem, EdgeWave, EdgeWindow } from './edge-window.ts'
import type { View } from './view.ts'

/** One wave as the page shows it: spec order, the rollout step's status of it. */
export type WaveView = {
  name: string
  approval: boolean
  revision?: number
  from?: number
  cut?: number
  edges: number
  ready: number
  failed: number
  stale: number
  pending: number
}

/** One Rollout of the space as the page shows it. */
export type RolloutView = {
  name: string
  phase?: RolloutPhase
  revision?: number
  completedRevision?: number
  pendingRevision?: number
  currentWave?: string
  paused: boolean
  waves: WaveView[]
  /** Set when the stored Rollout does not decode: it governs nothing in these views. */
  invalid?: string
}

export type SpaceRollouts = {
  /** Oldest first (creation time, then name), as the governing rule orders them. */
  views: RolloutView[]
  /** The Rollout governing `o`, if any. */
  governorOf(o: SourceObject): string | undefined
  /** The Rollouts governing some of `objects`, oldest first. */
  governing(objects: readonly SourceObject[]): string[]
  /** Where an edge (its Location's labels, its SyncTarget's uid) stands under each Rollout. */
  wavesAt(labels: Labels | undefined, syncTargetUid: string): Record<string, EdgeWave>
}

async function listRollouts(view: View, space: Space): Promise<KubeObject[]> {
  try {
    return (await view.client.list(space.id, ROLLOUTS)).filter((o) => !o.metadata.deletionTimestamp)
  } catch (e) {
    if (isNotFound(e)) return []
    throw e
  }
}

const aged = (o: KubeObject) => ({
  name: o.metadata.name ?? '',
  creationTimestamp: o.metadata.creationTimestamp ?? '',
})

/** The space's Rollouts: one list, decoded; their selections over the view's snapshot. */
export async function rolloutsOf(view: View, space: Space): Promise<SpaceRollouts> {
  const stored = (await listRollouts(view, space)).sort((a, b) => olderFirst(aged(a), aged(b)))
  if (stored.length === 0)
    return { views: [], governorOf: () => undefined, governing: () => [], wavesAt: () => ({}) }
  const snapshot = await view.reads.snapshot.space(space.id)
  const builtins = view.hub.builtins ?? builtinsFrom()
  const views: RolloutView[] = []
  const valid: {
    name: string
    keys: Set<string>
    spec: RolloutSpec
    status: RolloutStatus | undefined
  }[] = []
  for (const obj of stored) {
    const name = obj.metadata.name ?? ''
    const decoded = decodeObject(RolloutSchema, obj)
    if (!decoded.ok) {
      views.push({ name, paused: false, waves: [], invalid: describeIssues(decoded.problem) })
      continue
    }
    const { spec, status } = decoded.value
    const keys = new Set(selectForPlacement(obj, snapshot, builtins).objects.map(revisionKeyOf))
    valid.push({ name, keys, spec, status })
    views.push({
      name,
      ...(status?.phase ? { phase: status.phase } : {}),
      ...(status?.revision !== undefined ? { revision: status.revision } : {}),
      ...(status?.completedRevision !== undefined
        ? { completedRevision: status.completedRevision }
        : {}),
      ...(status?.pendingRevision !== undefined ? { pendingRevision: status.pendingRevision } : {}),
      ...(status?.currentWave ? { currentWave: status.currentWave } : {}),
      paused: spec.paused === true,
      waves: spec.waves.map((w): WaveView => {
        const s = status?.waves?.find((x) => x.name === w.name)
        return {
          name: w.name,
          approval: w.approval === true,
          ...(s?.revision !== undefined ? { revision: s.revision } : {}),
          ...(s?.from !== undefined ? { from: s.from } : {}),
          ...(s?.cut !== undefined ? { cut: s.cut } : {}),
          edges: s?.edges ?? 0,
          ready: s?.ready ?? 0,
          failed: s?.failed ?? 0,
          stale: s?.stale ?? 0,
          pending: s?.pending ?? 0,
        }
      }),
    })
  }
  const governorOf = (o: SourceObject) => {
    const k = revisionKeyOf(o)
    return valid.find((r) => r.keys.has(k))?.name
  }
  return {
    views,
    governorOf,
    governing: (objects) => {
      const names = new Set(objects.map(governorOf))
      return valid.flatMap((r) => (names.has(r.name) ? [r.name] : []))
    },
    wavesAt: (labels, syncTargetUid) => {
      const out: Record<string, EdgeWave> = {}
      for (const { name, spec, status } of valid) {
        const i = waveOf(spec.waves, labels)
        const due = destinationRevision(spec, status, { labels, syncTargetUid })
        out[name] = {
          wave: i === undefined ? null : (spec.waves[i]?.name ?? null),
          ...(due !== undefined ? { due } : {}),
        }
      }
      return out
    },
  }
}

/**
 * The window's edge items with their waves, judged by their Location's labels as the window's
 * inventory read them (also where the session may not see the labels: only the wave is shown).
 */
export async function withWaves(
  rollouts: SpaceRollouts,
  items: readonly EdgeItem[],
  dests: readonly Destination[],
  inventory: EdgeWindow['inventory']
): Promise<EdgeItem[]> {
  if (!rollouts.views.some((r) => !r.invalid)) return [...items]
  return Promise.all(
    items.map(async (item, i) => {
      const d = dests[i]
      if (!d) return item
      const labels = (await inventory(d.cluster)).locations.get(d.locationName)?.metadata.labels
      return { ...item, rollouts: rollouts.wavesAt(labels, d.syncTargetUID) }
    })
  )
}
