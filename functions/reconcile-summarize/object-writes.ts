/**
 * The summarize step's writes on the workload objects of its key's space (workload-writes.ts
 * writes one): every (object, destination) pair classified once (`conditions`); each object the
 * key's placement selects gets its executing count, its returned status when exactly one
 * destination runs it, and the edge-removal finalizer once some mailbox holds a copy sourced from
 * the space; an object no placement selects any more loses its count, unless `keepCounts` (some
 * EdgePlacement of the space does not decode, so what it selects is unknown: its objects cannot be
 * told from the others, and an unknown is not an absence), then it is left and counted as kept.
 */
import type { Registry } from '../../lib/kube/registry.ts'
import { mapLimit } from '../../lib/map-limit.ts'
import { type Destination, mailboxOfDestination } from '../../lib/placement/destinations.ts'
import type { SourceObject, SpaceSnapshot } from '../../lib/placement/types.ts'
import {
  type CopyCondition,
  copyCondition,
  isExecuting,
} from '../../lib/summarize/copy-condition.ts'
import { DEFAULT_LIVENESS, isLive, type Liveness } from '../../lib/summarize/liveness.ts'
import { carriesCurrentSpec } from './current-spec.ts'
import type { Observations } from './observe.ts'
import { objectKey, type Scope } from './scope.ts'
import {
  hasExecutingCount,
  returnedStatus,
  type WorkloadDeps,
  type WorkloadWant,
  writeWorkload,
} from './workload-writes.ts'

export type ObjectWriteDeps = WorkloadDeps & { registry(spaceId: string): Promise<Registry> }

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

/** The objects written, and the unplaced objects whose count was kept (`keepCounts`). */
export async function writeWorkloads(
  deps: ObjectWriteDeps,
  at: {
    spaceId: string
    scope: Scope
    space: SpaceSnapshot
    seen: Observations
    condition: Condition
    keepCounts: boolean
  }
): Promise<{ written: number; kept: number }> {
  const { spaceId, scope, space, seen, condition } = at
  const registry = await deps.registry(spaceId)
  const want = async (o: SourceObject): Promise<{ o: SourceObject; want: WorkloadWant }> => {
    const running = scope.destinationsOf(o).filter((d) => isExecuting(condition(o, d)))
    const only = running.length === 1 ? running[0] : undefined
    const hasStatus = registry.byResource(o.group, o.resource)?.subresources.status ?? false
    const single = only && hasStatus ? condition(o, only).reported : undefined
    const current = !!single && !!only && (await carriesCurrentSpec(o, seen.facts(o, only).entry))
    const status =
      single && current ? returnedStatus(single, o.object.metadata.generation) : undefined
    const finalizer = hasCopy(o) ? { finalizer: true } : {}
    return { o, want: { count: running.length, ...(status ? { status } : {}), ...finalizer } }
  }
  // A copy sourced from this space in some mailbox: the object's deletion will wait for it.
  const hasCopy = (o: SourceObject) =>
    !(o.group === '' && o.resource === 'namespaces') &&
    scope.destinationsOf(o).some((d) => {
      const e = seen.facts(o, d).entry
      return !!e && !e.removing && (!e.sources || e.sources.some((s) => s.space === spaceId))
    })
  const wants = await Promise.all((scope.mine?.objects ?? []).map(want))
  let kept = 0
  for (const o of space.objects) {
    if (!hasExecutingCount(o.object) || scope.placed.has(objectKey(o))) continue
    if (at.keepCounts) kept++
    else wants.push({ o, want: {} })
  }
  const done = await mapLimit(wants, 4, ({ o, want }) => writeWorkload(deps, spaceId, o, want))
  return { written: done.filter((d) => d.length > 0).length, kept }
}
