/**
 * The API version a destination gets for one API group when several workload spaces send it
 * objects of that group (seed 003, "EdgePlacement objects"), in two pure steps. `versionCandidates`
 * is the part that does not depend on memory: the intersection of the sources' served versions;
 * while it is empty, the source with the LOWEST version is thrown out and the rest tried again —
 * "lowest" meaning the source whose served versions, each list taken highest first by kube version
 * priority (lib/kube/crd.ts: v2 > v1 > v2beta1 > v1beta2 > v1alpha1 > other strings), compare
 * lowest element by element (so the one whose highest version is lowest; a list that is a prefix of
 * another is lower; identical lists throw out the greater source id first, so the result never
 * depends on input order). Then the union of the kept sources' preferred versions is intersected
 * with that intersection: when that is non-empty it is the candidate set, else the intersection
 * is. `chooseVersion` is the memory part: the remembered choice while it is still a candidate,
 * else the highest candidate (rolling forward is more common than rolling back). With a single
 * source the candidates are just its preferred version, so no memory can change the outcome.
 */
import { compareKubeVersions, sortByKubeVersionPriority } from '../../lib/kube/crd.ts'

/** What one source space serves of a group. */
export type VersionSource = { id: string; versions: readonly string[]; preferred: string }

export type Candidates = {
  /** The versions the choice may take, highest priority first; never empty. */
  candidates: string[]
  /** Source ids whose objects can be read at a candidate version, sorted. */
  kept: string[]
  /** Source ids thrown out, in the order they were, lowest first. */
  thrownOut: string[]
}

/** Negative when source `a` is lower than `b` (see the header). */
function compareSources(a: VersionSource, b: VersionSource): number {
  const va = sortByKubeVersionPriority(a.versions)
  const vb = sortByKubeVersionPriority(b.versions)
  for (let i = 0; i < Math.min(va.length, vb.length); i++) {
    const c = compareKubeVersions(va[i] as string, vb[i] as string)
    if (c !== 0) return c
  }
  if (va.length !== vb.length) return va.length - vb.length
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0
}

function intersection(sources: readonly VersionSource[]): string[] {
  const [first, ...rest] = sources
  if (!first) return []
  return [...new Set(first.versions)].filter((v) => rest.every((s) => s.versions.includes(v)))
}

/** The candidate versions for one group, given every source contributing objects of it. */
export function versionCandidates(sources: readonly VersionSource[]): Candidates {
  let kept = sources.filter((s) => s.versions.length > 0)
  const thrownOut: string[] = sources.filter((s) => s.versions.length === 0).map((s) => s.id)
  let common = intersection(kept)
  while (common.length === 0 && kept.length > 1) {
    const lowest = kept.reduce((low, s) => (compareSources(s, low) < 0 ? s : low))
    thrownOut.push(lowest.id)
    kept = kept.filter((s) => s !== lowest)
    common = intersection(kept)
  }
  const preferred = new Set(kept.map((s) => s.preferred))
  const both = common.filter((v) => preferred.has(v))
  return {
    candidates: sortByKubeVersionPriority(both.length > 0 ? both : common),
    kept: kept.map((s) => s.id).sort(),
    thrownOut,
  }
}

/** The remembered version while it is a candidate, else the highest candidate. */
export function chooseVersion(candidates: readonly string[], remembered?: string): string {
  if (remembered !== undefined && candidates.includes(remembered)) return remembered
  return sortByKubeVersionPriority(candidates)[0] ?? ''
}
