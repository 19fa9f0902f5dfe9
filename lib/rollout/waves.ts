/**
 * Which wave of a Rollout an edge is in (docs/architecture/rollout.md): the first wave whose
 * `locationSelectors` match its Location's labels (any selector matching; `{}` matches every
 * Location), else the catch-all wave (one without selectors, last by admission) when there is
 * one. An edge no wave takes is in none: it gets a revision once the last wave completed it.
 * Pure; a Location is judged by its labels alone, so translation, the relay and the rollout step
 * give one answer.
 */
import type { RolloutWave } from '../apis/edge-rollout.ts'
import { type Labels, matchesLabelSelector } from '../kube/label-selector.ts'

/** The index of the wave the edge of a Location with `labels` is in; undefined: none. */
export function waveOf(
  waves: readonly RolloutWave[],
  labels: Labels | undefined
): number | undefined {
  for (const [i, w] of waves.entries()) {
    const selectors = w.locationSelectors ?? []
    if (selectors.length === 0) return i
    if (selectors.some((s) => matchesLabelSelector(labels, s))) return i
  }
  return undefined
}
