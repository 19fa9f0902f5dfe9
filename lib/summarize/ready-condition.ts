/**
 * An EdgePlacement's `Ready` condition (what `kubectl get edgeplacements` prints under READY),
 * written by the summarize step beside `status.summary`. True (reason `AllReady`) when the
 * placement is resolved and translated at its current generation, has destinations, and every
 * selected object is ready, at its current version, at every destination, whose agents all report,
 * with nothing left to remove. Otherwise False with the first of these reasons that applies:
 * - `Resolving`: the where step has not resolved this generation (status.specGeneration);
 * - `NoDestinations`: no SyncTarget is selected;
 * - `Translating`: the translate step has not reported on this generation (no current
 *   `Translated` condition);
 * - the `Translated` condition's own reason when it is False (InvalidSelector, UnsupportedObjects,
 *   APIVersionConflict, MergeConflict, CustomizationFailed), with its message;
 * - `EdgeProblems`: copies failed at their edges (ApplyFailed, ForeignObject, a failed Job...),
 *   counted per reason;
 * - `StaleDestinations`: some destinations' agents have not reported within the staleness
 *   threshold the hub is configured with (liveness.ts; `staleAfterMs`, which the message states);
 * - `Propagating`: copies not yet applied and reported at the object's current version, or still
 *   leaving destinations;
 * - `Progressing`: copies applied but not ready yet (a Deployment rolling out);
 * - `NothingSelected`: the placement selects no object and has no upsync set.
 * The message holds counts only (no times), so an unchanged world gives the same condition. Pure.
 */
import type { PlacementSummary } from '../apis/edge-summary.ts'
import { humanDuration } from '../kube/printers/duration.ts'

export const READY = 'Ready'

export type ConditionWant = { status: 'True' | 'False'; reason: string; message: string }

/** The Translated condition as the translate step wrote it (absent: not yet). */
export type TranslatedSeen = {
  status?: unknown
  reason?: unknown
  message?: unknown
  observedGeneration?: unknown
}

export type ReadyInput = {
  /** The generation the summary was computed for. */
  generation: number
  specGeneration?: number
  matchingLocationCount?: number
  translated?: TranslatedSeen
  summary: PlacementSummary
  /** Failed (object, destination) pairs per reason. */
  failedByReason: ReadonlyMap<string, number>
  /** Pairs counted applied or ready whose copy does not carry the object's current spec yet. */
  outdated: number
  /** The placement has upsync sets (so selecting no object is not a mistake). */
  upsync: boolean
  /** The staleness threshold the destinations were classified with (Liveness.staleAfterMs). */
  staleAfterMs: number
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`
const no = (reason: string, message: string): ConditionWant => ({
  status: 'False',
  reason,
  message,
})

function translationProblem(i: ReadyInput): ConditionWant | undefined {
  const t = i.translated
  if (!t || t.observedGeneration !== i.generation)
    return no(
      'Translating',
      `waiting for the translate step to report on generation ${i.generation}`
    )
  if (t.status === 'True') return undefined
  const reason = typeof t.reason === 'string' && t.reason ? t.reason : 'NotTranslated'
  const said = typeof t.message === 'string' ? t.message.slice(0, 1000) : ''
  return no(reason, `not translated as asked: ${said}`)
}

function edgeProblems(i: ReadyInput, pairs: number): ConditionWant {
  const failed = i.summary.totals.failed
  const reasons = [...i.failedByReason]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .map(([r, n]) => `${r} ${n}`)
  return no(
    'EdgeProblems',
    `${failed} of ${plural(pairs, 'copy', 'copies')} failed at their edges (${reasons.join(', ')}); see status.summary.broken and the Events`
  )
}

function inMotion(i: ReadyInput, pairs: number): ConditionWant | undefined {
  const t = i.summary.totals
  const behind = t.pending + i.outdated
  const parts: string[] = []
  if (behind > 0)
    parts.push(
      `${behind} of ${plural(pairs, 'copy', 'copies')} not yet applied at the current version`
    )
  if (t.removing > 0)
    parts.push(`${plural(t.removing, 'copy', 'copies')} still leaving their destinations`)
  if (parts.length > 0) return no('Propagating', parts.join('; '))
  if (t.applied > 0)
    return no(
      'Progressing',
      `${t.applied} of ${plural(pairs, 'copy', 'copies')} applied but not ready yet`
    )
  return undefined
}

export function readyCondition(i: ReadyInput): ConditionWant {
  const s = i.summary
  if (i.specGeneration !== i.generation)
    return no('Resolving', `waiting for the where step to resolve generation ${i.generation}`)
  if (s.destinations === 0) {
    const locations = i.matchingLocationCount ?? 0
    return no(
      'NoDestinations',
      locations > 0
        ? `the ${plural(locations, 'matching Location')} select no SyncTarget`
        : 'no Location matches the locationSelectors'
    )
  }
  const translation = translationProblem(i)
  if (translation) return translation
  const pairs = s.objectCount * s.destinations
  if (s.totals.failed > 0) return edgeProblems(i, pairs)
  if (s.staleDestinations > 0)
    return no(
      'StaleDestinations',
      `${s.staleDestinations} of ${plural(s.destinations, 'destination')} sent no heartbeat within ${humanDuration(i.staleAfterMs)}`
    )
  const moving = inMotion(i, pairs)
  if (moving) return moving
  if (s.objectCount === 0 && !i.upsync)
    return no('NothingSelected', 'the placement selects no object')
  return {
    status: 'True',
    reason: 'AllReady',
    message:
      s.objectCount === 0
        ? `no object to send; ${plural(s.destinations, 'destination')} reporting`
        : `${plural(s.objectCount, 'object')} ready at ${plural(s.destinations, 'destination')}`,
  }
}
