/**
 * The reads of one batch of a placement step (translate, summarize), shared by its keys. Every
 * mailbox of a batch needs the same cross-space list of SinglePlacementSlices, the same
 * EdgePlacements and the same workload-space objects, so they are read once per batch (memoized
 * promises, safe under the batch's concurrency) and dropped with it: each new batch re-reads the
 * world, so the step stays level-based. A workload space's snapshot is every object of every
 * resource a placement could select there (built-ins and CRD-defined, all but the kinds that never
 * leave the center), at the preferred version of that space. A failed read rejects the memo, so
 * every key that needed it fails and is retried; nothing is computed from a partial read.
 * Customization inputs are read only when some selected object asks for customization: a space's
 * Customizers and an inventory space's Locations, each with one list per batch (a thousand
 * destinations in one inventory space cost one list).
 */
import { categoryOf } from '../apis/categories.ts'
import { CUSTOMIZERS, EDGE_PLACEMENTS, ESPW, LOCATIONS, PLACEMENT_SLICES } from '../apis/gvr.ts'
import { isApiError } from '../errors.ts'
import type { Gvr, HubClient } from '../hub/client.ts'
import type { Space } from '../hub/spaces.ts'
import type { Registry } from '../kube/registry.ts'
import { CLUSTER_ANNOTATION, type KubeObject } from '../kube/types.ts'
import type { SourceObject, SpaceSnapshot } from './types.ts'

export type SnapshotDeps = {
  client: HubClient
  registry(spaceId: string): Promise<Registry>
}

/** A placement that names a destination, with the EdgePlacement that owns its slice. */
export type PlacementRef = { spaceId: string; placement: KubeObject; slice: KubeObject }

export type Snapshot = {
  /** The mailbox space `root:espw:<name>`, or undefined when it does not exist (yet). */
  mailboxSpace(name: string): Promise<Space | undefined>
  /** Live placements whose slice names the SyncTarget (inventory space id + SyncTarget uid). */
  placementsFor(inventorySpaceId: string, syncTargetUid: string): Promise<PlacementRef[]>
  /** Every placeable object of a workload space. */
  space(spaceId: string): Promise<SpaceSnapshot>
  /** The registry of a workload space (resources, preferred versions). */
  registry(spaceId: string): Promise<Registry>
  /** The live Customizers of a workload space, by `namespace/name`. */
  customizers(spaceId: string): Promise<Map<string, KubeObject>>
  /** The live Locations of an inventory space, by name. */
  locations(spaceId: string): Promise<Map<string, KubeObject>>
}

const isNotFound = (e: unknown) => isApiError(e) && e.code === 404

function memo<T>(): (key: string, load: () => Promise<T>) => Promise<T> {
  const cache = new Map<string, Promise<T>>()
  return (key, load) => {
    let hit = cache.get(key)
    if (!hit) {
      hit = load()
      cache.set(key, hit)
    }
    return hit
  }
}

/** `namespace/name` of a namespaced object, `name` of a cluster-scoped one. */
const qualifiedName = (o: KubeObject) =>
  o.metadata.namespace
    ? `${o.metadata.namespace}/${o.metadata.name ?? ''}`
    : (o.metadata.name ?? '')

const spaceOf = (o: KubeObject) => o.metadata.annotations?.[CLUSTER_ANNOTATION] ?? ''

type Destination = { cluster?: unknown; syncTargetUID?: unknown }

function destinations(slice: KubeObject): Destination[] {
  const d = (slice as { destinations?: unknown }).destinations
  return Array.isArray(d) ? (d as Destination[]) : []
}

/** Is `slice` owned (ownerReference) by the EdgePlacement `placement` (this uid)? */
export function sliceOwnedBy(slice: KubeObject, placement: KubeObject): boolean {
  return (slice.metadata.ownerReferences ?? []).some(
    (r) => r.kind === 'EdgePlacement' && r.uid === placement.metadata.uid
  )
}

/** Lists every placeable resource of a space; resources that cannot be listed are skipped. */
async function readSpace(deps: SnapshotDeps, spaceId: string): Promise<SpaceSnapshot> {
  const registry = await deps.registry(spaceId)
  const wanted = registry
    .all()
    .filter((info) => info.verbs.includes('list'))
    .filter((info) => categoryOf(info.group, info.resource) !== 'not-for-edge')
  const lists = await Promise.all(
    wanted.map(async (info) => {
      const version = registry.group(info.group)?.preferredVersion ?? info.versions[0] ?? ''
      const gvr = { group: info.group, version, resource: info.resource }
      const items = await deps.client.list(spaceId, gvr)
      return items.map((object): SourceObject => ({ ...gvr, namespaced: info.namespaced, object }))
    })
  )
  return { spaceId, objects: lists.flat() }
}

export function createSnapshot(deps: SnapshotDeps): Snapshot {
  const spaces = memo<Space | undefined>()
  const slices = memo<KubeObject[]>()
  const placements = memo<KubeObject | undefined>()
  const workloads = memo<SpaceSnapshot>()
  const registries = memo<Registry>()
  const byName = memo<Map<string, KubeObject>>()
  const listByName = (spaceId: string, gvr: Gvr) =>
    byName(`${gvr.resource}\u0000${spaceId}`, async () => {
      try {
        const live = (await deps.client.list(spaceId, gvr)).filter(
          (o) => !o.metadata.deletionTimestamp
        )
        return new Map(live.map((o) => [qualifiedName(o), o]))
      } catch (e) {
        if (isNotFound(e)) return new Map()
        throw e
      }
    })
  const registry = (spaceId: string) => registries(spaceId, () => deps.registry(spaceId))
  const allSlices = () => slices('*', () => deps.client.list('*', PLACEMENT_SLICES))
  const placement = (spaceId: string, name: string) =>
    placements(`${spaceId}/${name}`, async () => {
      try {
        return await deps.client.get(spaceId, EDGE_PLACEMENTS, name)
      } catch (e) {
        if (isNotFound(e)) return undefined
        throw e
      }
    })
  return {
    mailboxSpace: (name) =>
      spaces(name, async () => {
        try {
          return await deps.client.space(`${ESPW}:${name}`)
        } catch (e) {
          if (isNotFound(e)) return undefined
          throw e
        }
      }),
    async placementsFor(inventorySpaceId, syncTargetUid) {
      const named = (await allSlices()).filter((s) =>
        destinations(s).some(
          (d) => d.cluster === inventorySpaceId && d.syncTargetUID === syncTargetUid
        )
      )
      const refs = await Promise.all(
        named.map(async (slice): Promise<PlacementRef | undefined> => {
          const spaceId = spaceOf(slice)
          const ep = await placement(spaceId, slice.metadata.name ?? '')
          if (!ep || ep.metadata.deletionTimestamp || !sliceOwnedBy(slice, ep)) return undefined
          return { spaceId, placement: ep, slice }
        })
      )
      return refs.filter((r): r is PlacementRef => r !== undefined)
    },
    space: (spaceId) => workloads(spaceId, () => readSpace({ ...deps, registry }, spaceId)),
    registry,
    customizers: (spaceId) => listByName(spaceId, CUSTOMIZERS),
    locations: (spaceId) => listByName(spaceId, LOCATIONS),
  }
}
