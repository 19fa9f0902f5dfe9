/**
 * Which destinations a Rollout's status change moves (docs/architecture/rollout.md, "Gates"):
 * those whose revision or place (hold.ts `destinationRevision`, `destinationPlace`) differs
 * between the status before and after, under one spec. A promotion moves only the
 * promoted wave's edges below its new cut, a rollback only the waves it returns; every other
 * destination's copies are what they were, so translation need not run for them. A destination
 * whose Location's labels are not known (`labels` null) counts as moved: a wake too many costs a
 * translation that writes nothing, one too few would leave an edge at the old revision. Pure; the
 * relay and the bench's rollout phase ask it the same question.
 */
import type { RolloutSpec, RolloutStatus } from '../apis/edge-rollout.ts'
import type { Labels } from '../kube/label-selector.ts'
import { destinationPlace, destinationRevision } from './hold.ts'

/** A destination: its mailbox, its SyncTarget's uid, its Location's labels (null: unknown). */
export type StandingDestination = {
  mailbox: string
  syncTargetUid: string
  labels: Labels | null
}

const standing = (spec: RolloutSpec, status: RolloutStatus | undefined, d: StandingDestination) => {
  const at = { labels: d.labels ?? undefined, syncTargetUid: d.syncTargetUid }
  return `${destinationRevision(spec, status, at) ?? ''}@${destinationPlace(spec, status, at) ?? ''}`
}

/** The mailboxes of the destinations whose standing `before` and `after` differ, sorted. */
export function movedDestinations(
  spec: RolloutSpec,
  before: RolloutStatus | undefined,
  after: RolloutStatus | undefined,
  destinations: Iterable<StandingDestination>
): string[] {
  const out = new Set<string>()
  for (const d of destinations)
    if (d.labels === null || standing(spec, before, d) !== standing(spec, after, d))
      out.add(d.mailbox)
  return [...out].sort()
}
