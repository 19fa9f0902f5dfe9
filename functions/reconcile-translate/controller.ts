/**
 * The translate controller: keys are mailbox names. `listKeys` pages through the mailbox spaces
 * registered under root:espw in name order after the cursor (lib/hub/spaces.ts `childSpaces`: one
 * bounded read per page, whatever the number of mailboxes), so the resync revisits every mailbox
 * at a cost per tick that does not grow with the fleet. (A Workspace whose space is not
 * registered yet has nothing to translate; its creation wakes the key.)
 * Each batch of keys (a hook call or a resync page) runs in one session sharing one snapshot of
 * the slices, placements and workload spaces (and the customization inputs and outcomes) and
 * one mover of the `manifests` epoch, a wave of WAVE mailboxes at a time (read ahead together,
 * mailbox-reads.ts), each wave's manifest writes committed as one group (manifest-commits.ts). Each stored edge object that does not decode is logged once per batch. The hook's pacer
 * assumes KEY_COST subrequests per key until it has measured one, so a whole wave starts at once.
 */

import { reportInvalid } from '../../lib/apis/decode.ts'
import { ESPW } from '../../lib/apis/gvr.ts'
import type { Bell } from '../../lib/edge/bell.ts'
import { isConflict } from '../../lib/errors.ts'
import { serviceProviderSpaceCheck } from '../../lib/hub/service-provider-space.ts'
import { collectionsOf } from '../../lib/hub/space-collections.ts'
import { childSpaces } from '../../lib/hub/spaces.ts'
import { createSnapshot, type SnapshotDeps } from '../../lib/placement/snapshot.ts'
import type { Controller } from '../../lib/reconcile/types.ts'
import { epochAnnouncer } from '../../lib/store/epochs.ts'
import { authoredOrder } from './authored-order.ts'
import { createCustomizations } from './customization.ts'
import { mailboxReads, WAVE } from './mailbox-reads.ts'
import { manifestCommits } from './manifest-commits.ts'
import { isMailboxName, TRANSLATE_STEP } from './names.ts'
import { reconcileTranslate, type TranslateDeps, type TranslateSession } from './reconcile.ts'
import { rolloutHolds } from './rollout-holds.ts'
import { contentMemo, settledShares } from './shared-content.ts'

export { TRANSLATE_STEP }

/**
 * Subrequests a translate key is assumed to cost before one is measured: its share of a wave's
 * reads ahead (3 requests per 96 keys) and of its group commit (about 1.2 per written mailbox),
 * a few more for the key that reads a chunk. The batch's first key pays the snapshot's reads
 * (pacer.ts leaves it out), so a whole wave starts under the hook's ceiling.
 */
export const KEY_COST = 6

export type TranslateControllerDeps = TranslateDeps &
  Pick<SnapshotDeps, 'registry' | 'slices'> & {
    /** Rung after each group commit: the edges' held polls (manifest-commits.ts). */
    bell?: Pick<Bell, 'ring'>
  }

export function translateController(deps: TranslateControllerDeps): Controller {
  const session = (keys: readonly string[]): TranslateSession => {
    const snapshot = createSnapshot({
      client: deps.client,
      registry: deps.registry,
      collections: (spaceId) => collectionsOf(deps.kv, spaceId),
      spCheck: serviceProviderSpaceCheck(deps.kv),
      onInvalid: (p) => reportInvalid(deps.log, TRANSLATE_STEP, p),
      ...(deps.slices ? { slices: deps.slices } : {}),
    })
    return {
      snapshot,
      reported: new Set<string>(),
      held: new Set<string>(),
      customizations: createCustomizations(),
      overlaps: new Map(),
      announcer: epochAnnouncer(deps.kv, 'manifests'),
      commits: manifestCommits(deps.projections, deps.bell ? { bell: deps.bell } : {}),
      mailboxes: mailboxReads(deps, keys),
      contents: contentMemo(),
      settled: settledShares(),
      authored: authoredOrder(deps.kv),
      holds: rolloutHolds(deps, snapshot),
      heldMemo: new WeakMap(),
    }
  }
  // A Conflict may come from planning on a read made ahead: run once more on fresh reads. The
  // commits are told while the run is in flight, so a wave's writes go out as one group.
  const run = async (s: TranslateSession, key: string) => {
    s.commits.started()
    try {
      return await reconcileTranslate(deps, s, key)
    } catch (e) {
      if (!isConflict(e)) throw e
      return await reconcileTranslate(deps, s, key)
    } finally {
      s.commits.ended()
    }
  }
  return {
    name: TRANSLATE_STEP,
    concurrency: WAVE,
    keyCost: KEY_COST,
    async reconcile(key) {
      const s = session([key])
      try {
        return await run(s, key)
      } finally {
        await s.announcer.settle()
      }
    },
    session(keys) {
      const s = session(keys)
      return {
        reconcile: (key: string) => run(s, key),
        settle: () => s.announcer.settle(),
      }
    },
    async listKeys(cursor, limit) {
      const page = await childSpaces(deps.kv, ESPW, { after: cursor, limit })
      const keys = page.spaces.map((s) => s.path.slice(ESPW.length + 1)).filter(isMailboxName)
      return page.more && page.last ? { keys, next: page.last } : { keys }
    },
  }
}
