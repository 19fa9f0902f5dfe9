/**
 * What the rollout phase (rollout-phase.ts) writes, and the names it uses: the ring label each
 * fan-out Location gets (`bench.edgeplane.dev/ring: r0`..`r3`, a quarter of them each, by the
 * Location's index), and the Rollout governing the fan-out's namespace in four waves, one per
 * ring, whose gate passes as soon as no counted edge is left (`soakSeconds: 0`,
 * `staleEdges: Skip`: the bench's edges have no agents, so every one is stale). Pure builders.
 */
import type { KubeObject } from '../lib/kube/types.ts'
import { NS_LABEL } from './fan-out-objects.ts'

export const ROLLOUT = 'bench-rollout'
export const RING_LABEL = 'bench.edgeplane.dev/ring'
export const RINGS = 4

/** The ring of the Location with index `i` (`st-<i>`): round robin, so each ring holds a quarter. */
export const ringOf = (i: number) => i % RINGS
export const ringName = (ring: number) => `r${ring}`

/** `st-0042` → 42 (the index targetName gave it), or undefined for another name. */
export function indexOfTarget(name: string): number | undefined {
  const m = /^st-(\d+)$/.exec(name)
  return m?.[1] === undefined ? undefined : Number(m[1])
}

/** The merge patch that puts a Location into its ring. */
export const ringPatch = (i: number) => ({
  metadata: { labels: { [RING_LABEL]: ringName(ringOf(i)) } },
})

/** The Rollout: the fan-out namespace's objects, one wave per ring, a gate that never waits. */
export function benchRollout(): KubeObject {
  return {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'Rollout',
    metadata: { name: ROLLOUT },
    spec: {
      namespaceSelector: { matchLabels: NS_LABEL },
      waves: Array.from({ length: RINGS }, (_, ring) => ({
        name: `wave-${ring}`,
        locationSelectors: [{ matchLabels: { [RING_LABEL]: ringName(ring) } }],
      })),
      gate: { soakSeconds: 0, staleEdges: 'Skip' },
    },
  } as KubeObject
}
