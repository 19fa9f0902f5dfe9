/**
 * The part `workloadWrites`: the summarize step's writes on the workload objects of its key's space
 * (workload-writes.ts writes one). Each object the key's placement selects gets its executing count
 * (destinations where its copy is applied or ready), the status it carries back from its edges and
 * where that is from (returned-status.ts: the singleton return, or the status aggregated over
 * several edges), and the edge-removal finalizer once some mailbox holds a copy sourced from the
 * space; an object no placement selects any more loses its count, unless `keepCounts` (some
 * EdgePlacement of the space does not decode, so what it selects is unknown: its objects cannot be
 * told from the others, and an unknown is not an absence), then it is left alone
 * (reconcile-kept-for-unknowns.ts counts it).
 */
import { mapLimit } from '../../lib/map-limit.ts'
import type { SourceObject, SpaceSnapshot } from '../../lib/placement/types.ts'
import { isExecuting } from '../../lib/summarize/copy-condition.ts'
import { statusWant } from './returned-status.ts'
import type { RunInput } from './run-input.ts'
import { objectKey, type Scope } from './scope.ts'
import { partResult, type SubReconciler } from './sub-reconciler.ts'
import { hasExecutingCount, type WorkloadWant } from './workload-writes.ts'

export type WorkloadWritesPartDeps = {
  /** The space's kinds: whether an object's has a status subresource (read once per run). */
  kinds(spaceId: string): Promise<StatusKinds>
  /** Brings one object to `want` (workload-writes.ts writeWorkload); what it wrote. */
  write(spaceId: string, o: SourceObject, want: WorkloadWant): Promise<string[]>
}

export type StatusKinds = { hasStatus(o: SourceObject): boolean }

export type WorkloadWritesInput = Pick<
  RunInput,
  'spaceId' | 'space' | 'scope' | 'seen' | 'condition' | 'unknown' | 'nowMs'
>

/** The objects no live placement selects that still carry an executing count. */
export function deselectedWithCount(space: SpaceSnapshot, scope: Scope): SourceObject[] {
  return space.objects.filter((o) => hasExecutingCount(o.object) && !scope.placed.has(objectKey(o)))
}

async function wantOf(
  kinds: StatusKinds,
  input: WorkloadWritesInput,
  o: SourceObject
): Promise<WorkloadWant> {
  const { spaceId, scope, seen, condition, nowMs } = input
  const destinations = scope.destinationsOf(o)
  const running = destinations.filter((d) => isExecuting(condition(o, d))).length
  const status = kinds.hasStatus(o)
    ? await statusWant({ o, destinations, condition, seen, nowMs })
    : {}
  // A copy sourced from this space in some mailbox: the object's deletion will wait for it.
  const hasCopy =
    !(o.group === '' && o.resource === 'namespaces') &&
    destinations.some((d) => {
      const e = seen.facts(o, d).entry
      return !!e && !e.removing && (!e.sources || e.sources.some((s) => s.space === spaceId))
    })
  return { count: running, ...status, ...(hasCopy ? { finalizer: true } : {}) }
}

export function workloadWritesPart(
  deps: WorkloadWritesPartDeps
): SubReconciler<WorkloadWritesInput> {
  return {
    name: 'workloadWrites',
    async run(input) {
      const kinds = await deps.kinds(input.spaceId)
      const objects = input.scope.mine?.objects ?? []
      const wants = await Promise.all(
        objects.map(async (o) => ({ o, want: await wantOf(kinds, input, o) }))
      )
      if (!input.unknown.keepCounts)
        for (const o of deselectedWithCount(input.space, input.scope)) wants.push({ o, want: {} })
      const done = await mapLimit(wants, 4, ({ o, want }) => deps.write(input.spaceId, o, want))
      const written = done.filter((d) => d.length > 0).length
      return partResult(written > 0 ? [`objects ${written}`] : [])
    },
  }
}
