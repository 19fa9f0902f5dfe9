/**
 * The part `rolloutStandings`: the key's placement's standings for Rollouts (run-input.ts
 * `standings`, rollout-standings.ts) stored for the rollout step's gates
 * (lib/rollout/standing-store.ts), only where a page differs. It runs before `placementStatus`,
 * which lists the Rollouts in `status.summary.rollouts`: that list, as the run read it, says
 * whether standings may be stored, so
 * - a placement none of whose copies carries a stamp, and whose summary lists no Rollout, costs
 *   no store request at all (an idle fleet without Rollouts pays nothing);
 * - one with stamps costs one batched read of its pages (one BatchGetItem per 100 pages of
 *   200 mailboxes) when nothing changed, plus one write per page that did;
 * - one whose copies lost every stamp while its summary still lists Rollouts has its pages
 *   deleted (one Query), before the summary stops listing them;
 * - a key whose placement is gone has its pages deleted (one Query), with its other summaries.
 */
import type { EdgePlacementObject } from '../../lib/apis/edge-objects.ts'
import type { Standings, WriteResult } from '../../lib/rollout/standing-store.ts'
import type { RunInput } from './run-input.ts'
import { partResult, type SubReconciler } from './sub-reconciler.ts'

export type RolloutStandingsPartDeps = {
  write(key: string, standings: Standings): Promise<WriteResult>
  /** Deletes every stored page of the key; how many there were. */
  drop(key: string): Promise<number>
}

export type RolloutStandingsInput = Pick<RunInput, 'key' | 'scope' | 'standings'>

const listed = (ep: EdgePlacementObject) => (ep.status?.summary?.rollouts?.length ?? 0) > 0

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`

export function rolloutStandingsPart(
  deps: RolloutStandingsPartDeps
): SubReconciler<RolloutStandingsInput> {
  return {
    name: 'rolloutStandings',
    async run({ key, scope, standings }) {
      const mine = scope.mine
      if (!mine || !standings || standings.size === 0) {
        if (mine && !listed(mine.placement)) return partResult([])
        const n = await deps.drop(key)
        return partResult(n > 0 ? [`${plural(n, 'rollout standings page')} removed`] : [])
      }
      const { written, deleted } = await deps.write(key, standings)
      const done: string[] = []
      if (written > 0) done.push(`${plural(written, 'rollout standings page')} written`)
      if (deleted > 0) done.push(`${plural(deleted, 'rollout standings page')} removed`)
      return partResult(done)
    },
  }
}
