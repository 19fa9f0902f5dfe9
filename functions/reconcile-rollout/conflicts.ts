/**
 * A Rollout's Conflict condition and Warning Event when another Rollout of its space selects some
 * of the same objects (lib/rollout/governor.ts: the oldest governs them). The younger one says
 * which older Rollout governs which of its objects (reason GovernedByOlder; it leaves them out of
 * its revisions), the older one which younger Rollouts also select its objects (reason
 * OverlapsYounger); False (NoConflict) otherwise. The Event is asked for only when the condition's
 * message moves to a new conflict, so a conflict standing still records nothing again.
 */
import type { Condition } from '../../lib/apis/meta.ts'
import type { Overlap, Overlaps } from '../../lib/rollout/governor.ts'
import type { RolloutEvent } from '../../lib/rollout/progress.ts'

/** Object keys a message names at most per Rollout. */
const NAMED_KEYS = 3

const listed = (o: Overlap) => {
  const some = o.keys.slice(0, NAMED_KEYS).join(', ')
  const more = o.keys.length > NAMED_KEYS ? ` and ${o.keys.length - NAMED_KEYS} more` : ''
  return `${o.name} (${o.keys.length}: ${some}${more})`
}

export const CONFLICT = 'Conflict'

/** The Conflict condition (without its transition time) for `overlaps`. */
export function conflictCondition(
  overlaps: Overlaps,
  observedGeneration: number
): Omit<Condition, 'lastTransitionTime'> {
  const { governedBy, alsoSelecting } = overlaps
  if (governedBy.length > 0)
    return {
      type: CONFLICT,
      status: 'True',
      reason: 'GovernedByOlder',
      message:
        `objects also selected by older Rollout ${governedBy.map(listed).join('; ')} are ` +
        "governed by it (the oldest governs) and left out of this Rollout's revisions",
      observedGeneration,
    }
  if (alsoSelecting.length > 0)
    return {
      type: CONFLICT,
      status: 'True',
      reason: 'OverlapsYounger',
      message:
        `younger Rollout ${alsoSelecting.map(listed).join('; ')} also selects objects this ` +
        'Rollout governs (the oldest governs)',
      observedGeneration,
    }
  return {
    type: CONFLICT,
    status: 'False',
    reason: 'NoConflict',
    message: 'no other Rollout selects its objects',
    observedGeneration,
  }
}

/** The Warning Event to record for `now`, when it names a conflict `before` did not. */
export function conflictEvent(
  now: Omit<Condition, 'lastTransitionTime'>,
  before: Condition | undefined
): RolloutEvent | undefined {
  if (now.status !== 'True') return undefined
  if (before?.status === 'True' && before.message === now.message) return undefined
  return { type: 'Warning', reason: now.reason ?? CONFLICT, message: now.message ?? '' }
}
