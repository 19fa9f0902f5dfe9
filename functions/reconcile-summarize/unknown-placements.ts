/**
 * What the summarize step must not remove while some placement of its space cannot be read
 * (reads.ts `unknownIn`: an EdgePlacement that does not decode, or the slice of one that does).
 * An unknown is not an absence: translate keeps that placement's copies where they are
 * (reconcile-translate/held-mailbox.ts), so summarize keeps what rests on them.
 * - An EdgePlacement that does not decode: what it selects is unknown (its selectors are part of
 *   what failed to decode), so no object of the space loses its executing count for being placed
 *   nowhere (`keepCounts`) — the narrowest scope that can be known.
 * - Its slice decodes: its destinations are known, and the mailboxes there are read with the
 *   others when removal finalizers may be lifted (`destinations`); a copy it left in one keeps the
 *   object's finalizer, exactly as for a valid placement.
 * - Its slice is missing or does not decode (or a valid placement's slice does not decode): where
 *   its copies are is unknown, so no removal finalizer of the space is lifted (`holdLifting`).
 * `logKept` writes one warning per key run that kept something. Pure.
 */
import type { Logger } from '../../lib/log.ts'
import type { Destination } from '../../lib/placement/destinations.ts'
import { SUMMARIZE_STEP } from './names.ts'
import type { UnknownPlacement } from './reads.ts'

export type Unknowns = {
  keepCounts: boolean
  holdLifting: boolean
  destinations: Destination[]
  /** The keys (`<space id>/<name>`) of the objects that do not decode. */
  keys: string[]
}

export function unknownsOf(list: readonly UnknownPlacement[]): Unknowns {
  return {
    keepCounts: list.some((u) => u.what === 'placement'),
    holdLifting: list.some((u) => !u.destinations),
    destinations: list.flatMap((u) => u.destinations ?? []),
    keys: list.map((u) => u.problem.key),
  }
}

/** One warning naming what was kept and why, when something was. */
export function logKept(
  log: Logger,
  spaceId: string,
  at: { unknowns: Unknowns; counts: number; finalizers: number }
): void {
  if (at.counts === 0 && at.finalizers === 0) return
  log.warn('removals held: a placement of the space does not decode', {
    step: SUMMARIZE_STEP,
    space: spaceId,
    keys: at.unknowns.keys,
    executingCountsKept: at.counts,
    finalizersKept: at.finalizers,
  })
}
