/**
 * The part `staleness`: turning stale arrives without any event, so the run asks to run again a
 * second past the moment the next live destination it observed would turn stale — for
 * the hub's staleness rule (`rule`) and for the staleness threshold of each Summarizer it handles — and a heartbeat
 * period from now while a destination that turned stale recently could come back unseen by
 * watchers (lib/summarize/liveness.ts `nextComeBackCheckIn`); never sooner than MIN_RECHECK_MS.
 * It writes nothing. Pure.
 */
import { nextComeBackCheckIn, nextStaleIn } from '../../lib/summarize/liveness.ts'
import type { RunInput } from './run-input.ts'
import { partResult, type SubReconciler } from './sub-reconciler.ts'

/** The soonest a key asks to be run again for staleness. */
export const MIN_RECHECK_MS = 30_000

export type StalenessInput = Pick<RunInput, 'observed' | 'nowMs' | 'rule'> & {
  seen: Pick<RunInput['seen'], 'destination'>
  scope: Pick<RunInput['scope'], 'summarizers'>
}

/** When to look again for destinations turning stale or coming back; undefined: no need. */
export function recheckIn(input: StalenessInput): number | undefined {
  const { observed, nowMs, seen, scope, rule } = input
  const beats = observed.map((d) => seen.destination(d).beatAt)
  const thresholds = [
    rule.staleAfterMs,
    ...scope.summarizers.map((h) => (h.spec?.stalenessThresholdSeconds ?? 0) * 1000),
  ].filter((t) => t > 0)
  // a second past the moment a destination turns stale, so that it is stale by then
  const turning = thresholds
    .map((t) => nextStaleIn(beats, nowMs, t))
    .map((n) => (n === undefined ? n : n + 1000))
  const due = [...turning, nextComeBackCheckIn(beats, nowMs, rule)].filter(
    (n): n is number => n !== undefined
  )
  return due.length > 0 ? Math.max(Math.min(...due), MIN_RECHECK_MS) : undefined
}

export const stalenessPart: SubReconciler<StalenessInput> = {
  name: 'staleness',
  run: async (input) => partResult([], recheckIn(input)),
}
