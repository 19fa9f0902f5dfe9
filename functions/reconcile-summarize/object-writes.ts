/**
 * Every (object, destination) pair of a summarize run classified once (`conditions`, over
 * lib/summarize/copy-condition.ts): the summary, the Ready facts, the executing counts and the
 * returned statuses of the workload objects (reconcile-workload-writes.ts) and the dashboard all
 * ask for the same pairs many times over, and each is worked out once.
 */
import { type Destination, mailboxOfDestination } from '../../lib/placement/destinations.ts'
import type { SourceObject } from '../../lib/placement/types.ts'
import { type CopyCondition, copyCondition } from '../../lib/summarize/copy-condition.ts'
import { DEFAULT_LIVENESS, isLive, type Liveness } from '../../lib/summarize/liveness.ts'
import type { Observations } from './observe.ts'
import { objectKey } from './scope.ts'

export type Condition = (o: SourceObject, d: Destination) => CopyCondition

/**
 * Every (object, destination) pair of the scope, classified once: by object key, then mailbox.
 * The pairs are asked for many times over (counts, finalizers, Ready facts), so an object's key is
 * worked out once per object (the SourceObjects of a run are never changed). A destination is
 * live by `rule`, the hub's staleness rule (the dashboard passes the one it is configured with).
 */
export function conditions(
  seen: Observations,
  nowMs: number,
  rule: Liveness = DEFAULT_LIVENESS
): Condition {
  const byObject = new Map<string, Map<string, CopyCondition>>()
  const keys = new WeakMap<SourceObject, Map<string, CopyCondition>>()
  const rowOf = (o: SourceObject) => {
    let row = keys.get(o)
    if (!row) {
      const k = objectKey(o)
      row = byObject.get(k) ?? new Map<string, CopyCondition>()
      byObject.set(k, row)
      keys.set(o, row)
    }
    return row
  }
  return (o, d) => {
    const row = rowOf(o)
    const mb = mailboxOfDestination(d)
    let c = row.get(mb)
    if (!c) {
      const facts = seen.facts(o, d)
      c = copyCondition({ ...facts, live: isLive(facts.beatAt, nowMs, rule.staleAfterMs) })
      row.set(mb, c)
    }
    return c
  }
}
