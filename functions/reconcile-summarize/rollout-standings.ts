/**
 * Where each destination of the key's placement stands for each Rollout whose stamp
 * (lib/rollout/stamp.ts) its copies carry (lib/rollout/standing.ts): per mailbox and Rollout,
 * the lowest revision stamped among that Rollout's copies there and the worst of their
 * conditions — the same classified pairs (object-writes.ts `conditions`) the summary counts, so
 * a destination turning stale or coming back moves its standings in the run that notices it.
 * A copy without a stamp (or with a malformed one) adds nothing; a placement none of whose copies
 * carries one has no standings. Each body's stamp is parsed once. Pure.
 */
import type { KubeObject } from '../../lib/kube/types.ts'
import { type Destination, mailboxOfDestination } from '../../lib/placement/destinations.ts'
import type { SourceObject } from '../../lib/placement/types.ts'
import { parseStamp, ROLLOUT_REVISION_ANNOTATION } from '../../lib/rollout/stamp.ts'
import { addCopy, type Standing } from '../../lib/rollout/standing.ts'
import type { Standings } from '../../lib/rollout/standing-store.ts'
import type { Condition } from './object-writes.ts'
import type { Observations } from './observe.ts'

type Stamp = ReturnType<typeof parseStamp>

export function rolloutStandings(
  objects: readonly SourceObject[],
  destinations: readonly Destination[],
  condition: Condition,
  seen: Pick<Observations, 'facts'>
): Standings {
  const stamps = new WeakMap<KubeObject, Stamp | null>()
  const stampOf = (body: KubeObject | undefined): Stamp => {
    if (!body) return undefined
    let s = stamps.get(body)
    if (s === undefined) {
      s = parseStamp(body.metadata.annotations?.[ROLLOUT_REVISION_ANNOTATION]) ?? null
      stamps.set(body, s)
    }
    return s ?? undefined
  }
  const out: Standings = new Map()
  for (const d of destinations) {
    let row: Map<string, Standing> | undefined
    for (const o of objects) {
      const stamp = stampOf(seen.facts(o, d).body)
      if (!stamp) continue
      const c = condition(o, d)
      row ??= new Map()
      row.set(stamp.rollout, addCopy(row.get(stamp.rollout), stamp.revision, c.state, c))
    }
    if (row) out.set(mailboxOfDestination(d), row)
  }
  return out
}
