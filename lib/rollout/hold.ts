/**
 * What one destination receives of the objects a Rollout governs (docs/architecture/placement.md,
 * "Rollout", what each edge receives): the revision the destination is at — its wave's revision when it is
 * below the wave's cut, else what the wave held before (`from`), the completed revision for an
 * edge no wave takes — and, for each governed object, that revision's body instead of the live
 * one. A governed object the revision does not hold (created since) is not sent yet; an object
 * deleted at the source that the revision still holds is sent as the revision has it, when the
 * placement would select it. Among Rollouts governing one object the oldest (creation time, then
 * name) governs it. A Rollout not adopted yet (no completed revision) holds nothing: its objects go
 * as they are. A revision whose record or body is missing is an error, never a silent fallback to
 * the live content. Every object sent from a revision carries its stamp (stamp.ts,
 * `<rollout>/<revision>`). Pure: the caller reads the Rollouts, records and bodies once per batch.
 */
import type { RolloutSpec, RolloutStatus } from '../apis/edge-rollout.ts'
import type { Labels } from '../kube/label-selector.ts'
import type { KubeObject } from '../kube/types.ts'
import type { SourceObject } from '../placement/types.ts'
import { belowCut } from './edge-order.ts'
import { olderFirst } from './governor.ts'
import { type RevisionRecord, revisionKeyOf } from './revision.ts'
import { stamped } from './stamp.ts'
import { waveOf } from './waves.ts'

/** A destination as the hold sees it: its Location's labels and its SyncTarget's uid. */
export type HoldDestination = { labels: Labels | undefined; syncTargetUid: string }

/** A Rollout of the workload space with what the hold needs of it. */
export type HeldRollout = {
  name: string
  creationTimestamp: string
  spec: RolloutSpec
  status: RolloutStatus | undefined
  /** Whether it governs the live object (its selection over the space). */
  governs(o: SourceObject): boolean
  record(revision: number): RevisionRecord | undefined
  body(hash: string): KubeObject | undefined
}

/** The revision `dest` is at under a Rollout; undefined while the Rollout holds nothing. */
export function destinationRevision(
  spec: RolloutSpec,
  status: RolloutStatus | undefined,
  dest: HoldDestination
): number | undefined {
  const completed = status?.completedRevision
  if (!completed) return undefined
  const i = waveOf(spec.waves, dest.labels)
  const name = i === undefined ? undefined : spec.waves[i]?.name
  const w = status.waves?.find((x) => x.name === name)
  if (!w || w.revision === undefined) return completed
  return belowCut(w.revision, dest.syncTargetUid, w.cut ?? 1) ? w.revision : (w.from ?? completed)
}

/**
 * Where `dest` stands under a Rollout, as one string, undefined while the Rollout holds nothing:
 * its wave's name (`-` for an edge no wave takes), with `>` when it is above the cut of its
 * wave's revision. At any one status every destination at one place is at one revision
 * (`destinationRevision`), and a place keeps its name when its wave is promoted, so mailboxes
 * that share their copies by place (the translate step's share key) keep sharing them through a
 * promotion: the wave's new revision is one write of their shared copies.
 */
export function destinationPlace(
  spec: RolloutSpec,
  status: RolloutStatus | undefined,
  dest: HoldDestination
): string | undefined {
  if (!status?.completedRevision) return undefined
  const i = waveOf(spec.waves, dest.labels)
  const name = i === undefined ? undefined : spec.waves[i]?.name
  if (name === undefined) return '-'
  const w = status.waves?.find((x) => x.name === name)
  if (!w || w.revision === undefined) return name
  return belowCut(w.revision, dest.syncTargetUid, w.cut ?? 1) ? name : `${name}>`
}

type Held = { rollout: HeldRollout; record: RevisionRecord }

function recordOf(r: HeldRollout, dest: HoldDestination): Held | undefined {
  const revision = destinationRevision(r.spec, r.status, dest)
  if (revision === undefined) return undefined
  const record = r.record(revision)
  if (!record) throw new Error(`rollout ${r.name}: revision ${revision} is not stored`)
  return { rollout: r, record }
}

function fromRevision(held: Held, key: string, like?: SourceObject): SourceObject | undefined {
  const entry = held.record.objects.find((e) => e.key === key)
  if (!entry) return undefined
  const body = held.rollout.body(entry.hash)
  if (!body)
    throw new Error(`rollout ${held.rollout.name}: revision ${held.record.number} lacks ${key}`)
  const [group = '', resource = ''] = key.split('/')
  return {
    group: like?.group ?? group,
    version: entry.version,
    resource: like?.resource ?? resource,
    namespaced: entry.namespaced,
    object: stamped(structuredClone(body), held.rollout.name, held.record.number),
  }
}

/**
 * What `dest` receives in place of `selected` (a placement's live selection): governed objects
 * at the destination's revision. `liveKeys` are the keys of every live object of the space (an
 * object absent from them was deleted at the source); `selects` answers which of some objects
 * the placement would select (for the deleted ones a revision still holds).
 */
export function holdFor(input: {
  selected: readonly SourceObject[]
  liveKeys: ReadonlySet<string>
  rollouts: readonly HeldRollout[]
  dest: HoldDestination
  selects(candidates: SourceObject[]): SourceObject[]
}): SourceObject[] {
  const rollouts = [...input.rollouts].sort(olderFirst)
  const held = new Map<HeldRollout, Held | undefined>()
  const heldBy = (r: HeldRollout) => {
    if (!held.has(r)) held.set(r, recordOf(r, input.dest))
    return held.get(r)
  }
  const out: SourceObject[] = []
  for (const o of input.selected) {
    const governor = rollouts.find((r) => r.governs(o))
    const h = governor ? heldBy(governor) : undefined
    if (!h) {
      out.push(o)
      continue
    }
    const replaced = fromRevision(h, revisionKeyOf(o), o)
    if (replaced) out.push(replaced)
  }
  const deleted: SourceObject[] = []
  const taken = new Set(out.map(revisionKeyOf))
  for (const r of rollouts) {
    const h = heldBy(r)
    for (const e of h?.record.objects ?? []) {
      if (input.liveKeys.has(e.key) || taken.has(e.key) || !h) continue
      const o = fromRevision(h, e.key)
      if (!o) continue
      taken.add(e.key)
      deleted.push(o)
    }
  }
  return deleted.length === 0 ? out : [...out, ...input.selects(deleted)]
}
