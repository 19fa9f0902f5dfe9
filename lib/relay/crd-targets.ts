/**
 * The custom resources the relay watches, per space. CRDs are per space (each space has its own
 * registry), and the hub's cross-space view serves only root's registry, so each CRD's resource is
 * watched in its own space, at its storage version (or the first served one). Fed by the
 * cross-space CRD watch: ADDED/MODIFIED record a CRD, DELETED forgets it, and after a relist
 * `retain` drops the CRDs that vanished in the gap. CRDs of the espw space and CRDs that would
 * shadow a built-in resource (the hub does not serve those) are left out.
 */
import { CLUSTER_ANNOTATION, type KubeObject } from '../kube/types.ts'
import type { WatchEvent } from './event-keys.ts'
import type { WatchTarget } from './watch-targets.ts'

export type CrdTargets = {
  /** Records a CRD event; true when the targets changed. */
  apply(event: WatchEvent): boolean
  /** Keeps only the CRDs in a fresh list; true when the targets changed. */
  retain(listed: readonly KubeObject[]): boolean
  /** The targets of the CRDs in these spaces. */
  inSpaces(spaces: Iterable<string>): WatchTarget[]
}

type Version = { name?: unknown; served?: unknown; storage?: unknown }
type CrdSpec = { group?: unknown; names?: { plural?: unknown }; versions?: unknown }

/** The per-space watch target of a CRD, or undefined when it lacks what a watch needs. */
export function crdWatchTarget(crd: KubeObject): WatchTarget | undefined {
  const space = crd.metadata?.annotations?.[CLUSTER_ANNOTATION]
  const spec = (crd.spec ?? {}) as CrdSpec
  const versions = Array.isArray(spec.versions) ? (spec.versions as Version[]) : []
  const served = versions.filter((v) => v && v.served === true && typeof v.name === 'string')
  const version = (served.find((v) => v.storage === true) ?? served[0])?.name
  const group = spec.group
  const resource = spec.names?.plural
  if (!space || typeof group !== 'string' || !group || typeof resource !== 'string' || !resource)
    return undefined
  return typeof version === 'string' ? { group, version, resource, space } : undefined
}

const same = (a: WatchTarget | undefined, b: WatchTarget | undefined) =>
  JSON.stringify(a) === JSON.stringify(b)

export function createCrdTargets(opts: {
  espwSpaceId: string
  /** True for a group/resource the hub serves as a built-in. */
  isBuiltin(group: string, resource: string): boolean
}): CrdTargets {
  /** space -> CRD name -> target */
  const bySpace = new Map<string, Map<string, WatchTarget>>()
  const key = (crd: KubeObject) => {
    const space = crd.metadata?.annotations?.[CLUSTER_ANNOTATION]
    const name = crd.metadata?.name
    return space && name ? { space, name } : undefined
  }
  const put = (space: string, name: string, t: WatchTarget | undefined): boolean => {
    const names = bySpace.get(space) ?? new Map<string, WatchTarget>()
    const before = names.get(name)
    if (same(before, t)) return false
    if (t) names.set(name, t)
    else names.delete(name)
    if (names.size > 0) bySpace.set(space, names)
    else bySpace.delete(space)
    return true
  }
  const wanted = (crd: KubeObject) => {
    const t = crdWatchTarget(crd)
    if (!t || t.space === opts.espwSpaceId || opts.isBuiltin(t.group, t.resource)) return undefined
    return t
  }
  return {
    apply(event) {
      const k = key(event.object)
      if (!k || !['ADDED', 'MODIFIED', 'DELETED'].includes(event.type)) return false
      return put(k.space, k.name, event.type === 'DELETED' ? undefined : wanted(event.object))
    },
    retain(listed) {
      const present = new Set(
        listed.map(key).flatMap((k) => (k ? [`${k.space}\u0000${k.name}`] : []))
      )
      let changed = false
      for (const [space, names] of [...bySpace])
        for (const name of [...names.keys()])
          if (!present.has(`${space}\u0000${name}`))
            changed = put(space, name, undefined) || changed
      return changed
    },
    inSpaces(spaces) {
      const out: WatchTarget[] = []
      for (const space of new Set(spaces)) out.push(...(bySpace.get(space)?.values() ?? []))
      return out
    },
  }
}
