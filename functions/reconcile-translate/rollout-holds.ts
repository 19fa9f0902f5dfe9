/**
 * The Rollouts of a workload space as translation holds them (docs/architecture/placement.md,
 * "Rollout"), read once per batch per space (memoized like the snapshot's reads, so a batch's
 * mailboxes share them): one list of the space's Rollouts — the one extra read a space without
 * Rollouts costs per batch — and, per adopted Rollout (one with a completed revision), one list of
 * its revision records and one read of the bodies the revisions its status names (completed, each
 * wave's revision and what it held before) are made of (lib/rollout/revision-store.ts). What
 * each Rollout governs is its selection over the batch's snapshot of the space (the same rules as
 * an EdgePlacement's, lib/placement/select.ts, as the rollout step selects). Rollouts being
 * deleted are left out (their objects go as they are). A failed read, and a stored Rollout that
 * does not decode (which edges get what cannot be told), reject the memo: every key of the batch
 * that needs the space fails and is retried, and no mailbox is rewritten from a partial reading.
 */
import type { Builtins } from '../../lib/apis/builtins.ts'
import { decodeObject } from '../../lib/apis/decode.ts'
import type { RolloutStatus } from '../../lib/apis/edge-rollout.ts'
import { RolloutSchema } from '../../lib/apis/edge-rollout.ts'
import { ROLLOUTS } from '../../lib/apis/gvr.ts'
import { isNotFound } from '../../lib/errors.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { memo } from '../../lib/placement/batch-memo.ts'
import { selectForPlacement } from '../../lib/placement/select.ts'
import type { Snapshot } from '../../lib/placement/snapshot.ts'
import type { SpaceSnapshot } from '../../lib/placement/types.ts'
import type { HeldRollout } from '../../lib/rollout/hold.ts'
import { type RevisionRecord, revisionKeyOf } from '../../lib/rollout/revision.ts'
import { createRevisionStore } from '../../lib/rollout/revision-store.ts'
import type { KvStore } from '../../lib/store/types.ts'

/** A workload space's Rollouts with what the hold needs, and the keys of its live objects. */
export type SpaceHold = {
  rollouts: HeldRollout[]
  liveKeys: ReadonlySet<string>
  space: SpaceSnapshot
}

export type RolloutHolds = {
  /** The space's Rollouts (none: an empty list), read once per batch. */
  of(spaceId: string): Promise<SpaceHold>
}

type HoldDeps = { client: HubClient; kv: KvStore; builtins: Builtins }

/** The revisions a status names: what any destination can be at. */
export function namedRevisions(status: RolloutStatus | undefined): Set<number> {
  const out = new Set<number>()
  if (!status?.completedRevision) return out
  out.add(status.completedRevision)
  for (const w of status.waves ?? []) {
    if (w.revision !== undefined) out.add(w.revision)
    if (w.from !== undefined) out.add(w.from)
  }
  return out
}

async function listRollouts(client: HubClient, spaceId: string): Promise<KubeObject[]> {
  try {
    return (await client.list(spaceId, ROLLOUTS)).filter((o) => !o.metadata.deletionTimestamp)
  } catch (e) {
    if (isNotFound(e)) return []
    throw e
  }
}

async function readHold(
  deps: HoldDeps,
  snapshot: Pick<Snapshot, 'space'>,
  spaceId: string
): Promise<SpaceHold> {
  const [stored, space] = await Promise.all([
    listRollouts(deps.client, spaceId),
    snapshot.space(spaceId),
  ])
  const liveKeys = new Set(
    space.objects.filter((o) => !o.object.metadata?.deletionTimestamp).map(revisionKeyOf)
  )
  const store = createRevisionStore(deps.kv)
  const rollouts = await Promise.all(
    stored.map(async (obj): Promise<HeldRollout> => {
      const decoded = decodeObject(RolloutSchema, obj)
      if (!decoded.ok)
        throw new Error(
          `Rollout ${obj.metadata.name ?? ''} does not decode: what it holds is unknown`
        )
      const { spec, status } = decoded.value
      const governed = new Set(
        selectForPlacement(obj, space, deps.builtins).objects.map(revisionKeyOf)
      )
      const wanted = namedRevisions(status)
      const ref = { spaceId, uid: obj.metadata.uid ?? '' }
      const records = new Map<number, RevisionRecord>()
      let bodies = new Map<string, KubeObject>()
      if (wanted.size > 0) {
        for (const r of await store.revisions(ref))
          if (wanted.has(r.number)) records.set(r.number, r)
        const hashes = [...records.values()].flatMap((r) => r.objects.map((e) => e.hash))
        if (hashes.length > 0) bodies = await store.bodies(ref, hashes)
      }
      return {
        name: obj.metadata.name ?? '',
        creationTimestamp: obj.metadata.creationTimestamp ?? '',
        spec,
        status,
        governs: (o) => governed.has(revisionKeyOf(o)),
        record: (n) => records.get(n),
        body: (h) => bodies.get(h),
      }
    })
  )
  return { rollouts, liveKeys, space }
}

export function rolloutHolds(deps: HoldDeps, snapshot: Pick<Snapshot, 'space'>): RolloutHolds {
  const holds = memo<SpaceHold>()
  return { of: (spaceId) => holds(spaceId, () => readHold(deps, snapshot, spaceId)) }
}
