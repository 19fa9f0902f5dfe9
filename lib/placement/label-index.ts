/**
 * Objects indexed by their labels, for selecting among many at once: the where step matches every
 * Location's instanceSelector against the SyncTargets of its space, and with ten thousand of each
 * (one Location per edge, selecting its SyncTarget by an `id` label) testing every pair was 10^8
 * label matches per run. `candidates` narrows a selector's requirements to the objects carrying
 * the value of one of its `Equals`/`In` requirements (the smallest such set), or all objects when
 * it has none; the caller still tests every requirement on each candidate, so the index only
 * skips objects that cannot match. Built once per list of objects.
 */
import type { LabelRequirement } from '../kube/label-selector.ts'
import type { KubeObject } from '../kube/types.ts'

export type LabelIndex<T> = {
  /** The objects that could satisfy every requirement, in their original order. */
  candidates(requirements: readonly LabelRequirement[]): readonly T[]
}

export function labelIndex<T extends Pick<KubeObject, 'metadata'>>(
  objects: readonly T[]
): LabelIndex<T> {
  const byLabel = new Map<string, Map<string, number[]>>()
  objects.forEach((o, i) => {
    for (const [key, value] of Object.entries(o.metadata.labels ?? {})) {
      let values = byLabel.get(key)
      if (!values) {
        values = new Map()
        byLabel.set(key, values)
      }
      const at = values.get(value)
      if (at) at.push(i)
      else values.set(value, [i])
    }
  })
  const matching = (r: LabelRequirement): number[] => {
    const values = byLabel.get(r.key)
    const out: number[] = []
    for (const v of new Set(r.values)) out.push(...(values?.get(v) ?? []))
    return out.sort((a, b) => a - b)
  }
  return {
    candidates(requirements) {
      let best: number[] | undefined
      for (const r of requirements) {
        if (r.operator !== 'Equals' && r.operator !== 'In') continue
        const found = matching(r)
        if (!best || found.length < best.length) best = found
      }
      return best ? best.map((i) => objects[i] as T) : objects
    },
  }
}
