/**
 * The tally the rollout step uses (tally.ts `Tally`; docs/architecture/rollout.md, "Gates"): where
 * a Rollout's edges stand, from the standings the summarize step keeps per placement and mailbox
 * (lib/rollout/standing-store.ts) — never from the edges' reports. It reads every stored page of
 * the Rollout's workload space (a Query per LIST_PAGE pages, each only while the invocation has
 * room: else the step is deferred and runs again), folds the standings several placements keep
 * for one edge (lib/rollout/standing.ts `combine`: the lowest revision, the worst state), and
 * counts each wave with `countWave`, each edge by `standingAt`: stale when its agent is silent,
 * ready when all its copies of the Rollout are at the revision asked or later and ready, failed
 * when they are and one failed (a failure at an older revision is still pending for the new one),
 * pending otherwise — also an edge with no standing yet. A failed read throws, so nothing is
 * promoted on missing data.
 */
import { mailboxName } from '../../lib/reconcile/keys.ts'
import { combine, type Standing, standingAt } from '../../lib/rollout/standing.ts'
import { readSpaceStandings } from '../../lib/rollout/standing-store.ts'
import type { KvStore } from '../../lib/store/types.ts'
import { countWave, type Tally } from './tally.ts'

export function standingsTally(kv: KvStore): Tally {
  return async (input) => {
    const name = input.rollout.name
    const byMailbox = new Map<string, Standing>()
    for (const page of await readSpaceStandings(kv, input.spaceId))
      for (const [mb, row] of page.edges) {
        const s = row.get(name)
        if (s) byMailbox.set(mb, combine(byMailbox.get(mb), s))
      }
    return input.waves.map(
      (w) => (revision: number, cut: number) =>
        countWave(w.edges, revision, cut, (e, at) =>
          standingAt(byMailbox.get(mailboxName(e.cluster, e.syncTargetUid)), at, input.revision)
        )
    )
  }
}
