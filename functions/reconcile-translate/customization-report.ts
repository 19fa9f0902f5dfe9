/**
 * The customization problems of one EdgePlacement, over ALL the destinations its slice names (not
 * just the mailbox being reconciled), so that every mailbox's reconcile computes the same report
 * and the placement's condition does not flip between them. For each selected object asking for
 * customization and each destination (one per SyncTarget, destinations.ts), the batch's memoized
 * outcome; problems with the same object, reason and detail are grouped with the destinations
 * they affect. Reading the inputs costs one list of the space's Customizers and one list of
 * Locations per inventory space per batch; computing is pure and memoized per batch.
 */
import { asksForCustomization } from '../../lib/customize/annotations.ts'
import type { PlacementRef, Snapshot } from '../../lib/placement/snapshot.ts'
import type { Selection, SourceObject } from '../../lib/placement/types.ts'
import type { CustomizationProblem, Customizations } from './customization.ts'
import { loadInputs } from './customization.ts'
import { destinationsOf, label } from './destinations.ts'

export type CustomizationReport = {
  source: SourceObject
  problem: CustomizationProblem
  /** The destinations with this problem, as labels, sorted. */
  destinations: string[]
}

export async function placementCustomization(
  snapshot: Pick<Snapshot, 'customizers' | 'locations'>,
  customizations: Customizations,
  ref: PlacementRef,
  selection: Selection
): Promise<CustomizationReport[]> {
  const asking = selection.objects.filter((o) => asksForCustomization(o.object))
  if (asking.length === 0) return []
  const dests = destinationsOf(ref.slice)
  const inputs = await loadInputs(
    snapshot,
    [ref.spaceId],
    dests.map((d) => d.location.cluster)
  )
  const grouped = new Map<string, CustomizationReport>()
  for (const source of asking) {
    for (const d of dests) {
      const problem = customizations.problem(inputs, ref.spaceId, source.object, d.location)
      if (!problem) continue
      const m = source.object.metadata
      const key = [
        source.group,
        source.resource,
        m.namespace,
        m.name,
        problem.reason,
        problem.detail,
      ]
        .map(String)
        .join('\u0000')
      const at = grouped.get(key) ?? { source, problem, destinations: [] }
      at.destinations.push(label(d))
      grouped.set(key, at)
    }
  }
  return [...grouped.values()]
}

/** `a, b, c and 4 more` */
export function listDestinations(labels: readonly string[], shown = 3): string {
  const head = labels.slice(0, shown).join(', ')
  return labels.length > shown ? `${head} and ${labels.length - shown} more` : head
}

/** The object a problem is about, as messages name it: `ConfigMap common/cm1`. */
export function describeSource(source: SourceObject): string {
  const m = source.object.metadata
  return `${source.object.kind} ${m.namespace ? `${m.namespace}/` : ''}${m.name ?? ''}`
}
