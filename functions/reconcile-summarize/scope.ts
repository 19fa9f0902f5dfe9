/**
 * What one summarize key has to look at, from its workload space: what every live EdgePlacement
 * of the space selects (translate's selection, so exactly what is sent; APIBindings, which stay in
 * the mailbox, are left out) and where each selected object goes — the union of the destinations
 * of every placement selecting it, one per SyncTarget, since the executing count and the
 * Summarizers are about the object, not one placement. The key's own placement, if live, and the
 * Summarizers it handles: those selecting at least one of its objects, and those selecting no
 * placed object at all (every key of the space writes the same empty summary for them); a
 * Summarizer about other placements' objects only is left to their keys. Pure.
 */
import type { Builtins } from '../../lib/apis/builtins.ts'
import { categoryOf } from '../../lib/apis/categories.ts'
import { type SummarizerSpec, SummarizerSpecSchema } from '../../lib/apis/edge-summary.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { copyKeyOf } from '../../lib/placement/copy-key.ts'
import { type Destination, uniqueDestinations } from '../../lib/placement/destinations.ts'
import { selectForPlacement } from '../../lib/placement/select.ts'
import type { SourceObject, SpaceSnapshot } from '../../lib/placement/types.ts'
import { entryKey } from '../../lib/store/projection-diff.ts'
import { subjectMatcher } from '../../lib/summarize/subject.ts'
import type { PlacementInfo } from './reads.ts'

export type Selected = PlacementInfo & { objects: SourceObject[] }

export type HandledSummarizer = {
  summarizer: KubeObject
  /** undefined when the spec does not parse. */
  spec?: SummarizerSpec
  matched: SourceObject[]
}

export type Scope = {
  /** The key's placement with its selection; undefined when absent or being deleted. */
  mine?: Selected
  /** Every object some live placement of the space selects, by entryKey. */
  placed: Map<string, SourceObject>
  /** The destinations of an object (union over the placements selecting it). */
  destinationsOf(o: SourceObject): Destination[]
  summarizers: HandledSummarizer[]
}

export const objectKey = (o: SourceObject) => entryKey(copyKeyOf(o))

export type ScopeInput = {
  name: string
  space: SpaceSnapshot
  placements: readonly PlacementInfo[]
  summarizers: readonly KubeObject[]
  builtins: Builtins
}

/** What each placement selects and sends (mailbox-only kinds left out), in placement order. */
export function selectedOf(
  placements: readonly PlacementInfo[],
  space: SpaceSnapshot,
  builtins: Builtins
): Selected[] {
  return placements.map((p) => ({
    ...p,
    objects: selectForPlacement(p.placement, space, builtins).objects.filter(
      (o) => categoryOf(o.group, o.resource) !== 'mailbox-only'
    ),
  }))
}

export function scopeOf(input: ScopeInput): Scope {
  const { name, space, placements, summarizers, builtins } = input
  const selected = selectedOf(placements, space, builtins)
  const placed = new Map<string, SourceObject>()
  // Per object, the destination lists of the placements selecting it, in placement order.
  const dests = new Map<string, (readonly Destination[])[]>()
  for (const p of selected) {
    for (const o of p.objects) {
      const k = objectKey(o)
      placed.set(k, o)
      const lists = dests.get(k)
      if (lists) lists.push(p.destinations)
      else dests.set(k, [p.destinations])
    }
  }
  // The objects one placement alone selects share its list, made unique once (never changed).
  const perList = new Map<readonly Destination[], Destination[]>()
  const uniqueOf = (lists: (readonly Destination[])[]): Destination[] => {
    const [only] = lists
    if (lists.length !== 1 || !only) return uniqueDestinations(lists.flat())
    let u = perList.get(only)
    if (!u) {
      u = uniqueDestinations(only)
      perList.set(only, u)
    }
    return u
  }
  const unique = new Map([...dests].map(([k, lists]) => [k, uniqueOf(lists)]))
  const mine = selected.find((p) => p.placement.metadata.name === name)
  const own = new Set(mine?.objects.map(objectKey))
  const handled: HandledSummarizer[] = []
  for (const summarizer of summarizers) {
    const parsed = SummarizerSpecSchema.safeParse(summarizer.spec)
    const matches = subjectMatcher(parsed.success ? parsed.data.subject : undefined)
    const matched = [...placed.values()].filter((o) =>
      matches({ ...copyKeyOf(o), labels: o.object.metadata.labels ?? {} })
    )
    if (matched.length > 0 && !matched.some((o) => own.has(objectKey(o)))) continue
    handled.push({ summarizer, matched, ...(parsed.success ? { spec: parsed.data } : {}) })
  }
  return {
    ...(mine ? { mine } : {}),
    placed,
    destinationsOf: (o) => unique.get(objectKey(o)) ?? [],
    summarizers: handled,
  }
}
