import { type DecodeProblem, type DecodeResult, decodeEach, decodeObject } from '../apis/decode.ts'
import { LocationSchema } from '../apis/edge-inventory.ts'
import type {
  CustomizerObject,
  EdgePlacementObject,
  LocationObject,
  SliceObject,
} from '../apis/edge-objects.ts'
import {
  CustomizerSchema,
  EdgePlacementSchema,
  SinglePlacementSliceSchema,
} from '../apis/edge-v1alpha1.ts'
import { CUSTOMIZERS, EDGE_PLACEMENTS, LOCATIONS, PLACEMENT_SLICES } from '../apis/gvr.ts'
import { isNotFound } from '../errors.ts'
import type { Gvr, HubClient } from '../hub/client.ts'
import {
  listOutsideServiceProvider,
  type ServiceProviderCheck,
} from '../hub/service-provider-space.ts'
import type { Space } from '../hub/spaces.ts'
import type { Registry } from '../kube/registry.ts'
import { CLUSTER_ANNOTATION, type KubeObject } from '../kube/types.ts'
import { mailboxSpacePath } from '../reconcile/keys.ts'
import { loadTenancy, spacePathOf } from '../tenancy/load.ts'
import type { TenancyPolicy, WorkloadGrant } from '../tenancy/policy.ts'
import { memo } from './batch-memo.ts'
import { coalescedGets } from './coalesced-gets.ts'
import { readSpace } from './read-space.ts'
import { createSliceCache, type SliceCache, type SliceIndex } from './slice-cache.ts'
import {
  destinationId,
  groupSlices,
  mergeSlices,
  namesDestination as names,
  type SliceGroup,
} from './slice-groups.ts'
import { placementOfSlice } from './slice-owner.ts'
import type { SpaceSnapshot } from './types.ts'

export type SnapshotDeps = {
  client: HubClient
  registry(spaceId: string): Promise<Registry>
  /**
   * The collections (`<group>/<resource>`) of a space that may hold objects, read afresh
   * (lib/hub/space-collections.ts); undefined, or without it, every collection may.
   */
  collections?(spaceId: string): Promise<ReadonlySet<string> | undefined>
  /** Told of each stored edge object that does not decode, once per batch; it is left out. */
  onInvalid?: (problem: DecodeProblem) => void
  /** The hub's decoded slice listings, kept between batches (slice-cache.ts). */
  slices?: SliceCache
  /** Whether a space is `root:espw` or below (its slices are left out); default: ask the client. */
  spCheck?: ServiceProviderCheck | undefined
}

/**
 * A placement that names a destination, with the EdgePlacement that owns its slices and their
 * union as one slice.
 */
export type PlacementRef = { spaceId: string; placement: EdgePlacementObject; slice: SliceObject }

/** A placement whose slice names a destination but which does not decode. */
export type InvalidPlacement = { spaceId: string; problem: DecodeProblem }

export type Snapshot = {
  /** The mailbox space `root:espw:<name>`, or undefined when it does not exist (yet). */
  mailboxSpace(name: string): Promise<Space | undefined>
  /** Live placements whose slice names the SyncTarget (inventory space id + SyncTarget uid). */
  placementsFor(inventorySpaceId: string, syncTargetUid: string): Promise<PlacementRef[]>
  /**
   * The destinations (slice-groups.ts `destinationId`) named by slices of more than one workload
   * space; nowhere else can the objects of two spaces conflict.
   */
  meetingDestinations(): Promise<ReadonlySet<string>>
  /** The placements a slice naming the SyncTarget belongs to that do not decode. */
  invalidPlacementsFor(inventorySpaceId: string, syncTargetUid: string): Promise<InvalidPlacement[]>
  /**
   * Why what the live placement `name` of a workload space delivers is unknown: its EdgePlacement
   * does not decode, or it does and one of its slices (lib/placement/slice-owner.ts) does not. Undefined when the
   * placement decodes with a slice that decodes or none, and when it is absent or being deleted.
   */
  unknownPlacement(spaceId: string, name: string): Promise<DecodeProblem | undefined>
  /** The stored slices (of any space) that do not decode: their destinations are unknown. */
  invalidSlices(): Promise<DecodeProblem[]>
  /** Every placeable object of a workload space. */
  space(spaceId: string): Promise<SpaceSnapshot>
  /** The registry of a workload space (resources, preferred versions). */
  registry(spaceId: string): Promise<Registry>
  /** The live Customizers of a workload space, by `namespace/name`, decoded or not. */
  customizers(spaceId: string): Promise<Map<string, DecodeResult<CustomizerObject>>>
  /** The live Locations of an inventory space that decode, by name. */
  locations(spaceId: string): Promise<Map<string, LocationObject>>
  /** One live Location that decodes, by name, read with the batch's other named ones. */
  location(spaceId: string, name: string): Promise<LocationObject | undefined>
  /** The tenancy policy (lib/tenancy/policy.ts), read once per batch. */
  tenancy(): Promise<TenancyPolicy>
  /** The grant of a workload space by id; undefined when the space no longer exists. */
  grantOf(spaceId: string): Promise<WorkloadGrant | undefined>
}

/** `namespace/name` of a namespaced object, `name` of a cluster-scoped one. */
const qualifiedName = (o: Pick<KubeObject, 'metadata'>) =>
  o.metadata.namespace
    ? `${o.metadata.namespace}/${o.metadata.name ?? ''}`
    : (o.metadata.name ?? '')

const spaceOf = (o: Pick<KubeObject, 'metadata'>) =>
  o.metadata.annotations?.[CLUSTER_ANNOTATION] ?? ''

export function createSnapshot(deps: SnapshotDeps): Snapshot {
  const spaces = memo<Space | undefined>()
  const slices = memo<SliceIndex>()
  const sliceCache = deps.slices ?? createSliceCache(1)
  const placements = memo<DecodeResult<EdgePlacementObject> | undefined>()
  const workloads = memo<SpaceSnapshot>()
  const registries = memo<Registry>()
  const customizers = memo<Map<string, DecodeResult<CustomizerObject>>>()
  const locations = memo<Map<string, LocationObject>>()
  const policies = memo<TenancyPolicy>()
  const paths = memo<string | undefined>()
  const onInvalid = (p: DecodeProblem) => deps.onInvalid?.(p)
  const namedLocations = coalescedGets<LocationObject>(async (spaceId, names) => {
    const found = [...(await deps.client.getMany(spaceId, LOCATIONS, names)).values()]
    const live = found.filter((o) => !o.metadata.deletionTimestamp)
    return new Map(decodeEach(LocationSchema, live, onInvalid).map((o) => [qualifiedName(o), o]))
  })
  const listLive = async (spaceId: string, gvr: Gvr) => {
    try {
      return (await deps.client.list(spaceId, gvr)).filter((o) => !o.metadata.deletionTimestamp)
    } catch (e) {
      if (isNotFound(e)) return []
      throw e
    }
  }
  const registry = (spaceId: string) => registries(spaceId, () => deps.registry(spaceId))
  const tenancy = () => policies('', () => loadTenancy(deps.client))
  const grantOf = async (spaceId: string) => {
    const path = await paths(spaceId, () => spacePathOf(deps.client, spaceId))
    return path === undefined ? undefined : (await tenancy()).grantOf(path)
  }
  // Listed afresh per batch; decoded, grouped and merged once per listing (slice-cache.ts).
  const sliceList = () =>
    slices('*', async () => {
      const listed = await listOutsideServiceProvider(deps.client, PLACEMENT_SLICES, deps.spCheck)
      const index = sliceCache.index(listed, () => {
        const invalid: DecodeProblem[] = []
        const valid = decodeEach(SinglePlacementSliceSchema, listed, (p) => invalid.push(p))
        return { valid, invalid, ...groupSlices(valid), merged: new Map() }
      })
      for (const p of index.invalid) onInvalid(p)
      return index
    })
  const placement = (spaceId: string, name: string) =>
    placements(`${spaceId}/${name}`, async () => {
      let stored: KubeObject | undefined
      try {
        stored = await deps.client.get(spaceId, EDGE_PLACEMENTS, name)
      } catch (e) {
        if (isNotFound(e)) return undefined
        throw e
      }
      if (!stored || stored.metadata.deletionTimestamp) return undefined
      const res = decodeObject(EdgePlacementSchema, stored)
      if (!res.ok) onInvalid(res.problem)
      return res
    })
  /** Per placement and uid: its slices owned by that uid as one (memoized per listing). */
  const ownedSlice = (
    { merged }: SliceIndex,
    group: SliceGroup,
    owner: Pick<KubeObject, 'metadata'>
  ) => {
    const key = `${group.spaceId}/${group.placement}/${owner.metadata.uid ?? ''}`
    if (!merged.has(key)) merged.set(key, mergeSlices(group.slices, owner))
    return merged.get(key)
  }
  /** The placements (decoded or not) whose slices name the SyncTarget. */
  const named = async (inventorySpaceId: string, syncTargetUid: string) => {
    const index = await sliceList()
    const groups = index.byDestination.get(destinationId(inventorySpaceId, syncTargetUid)) ?? []
    return Promise.all(
      groups.map(async (group) => ({
        index,
        group,
        res: await placement(group.spaceId, group.placement),
      }))
    )
  }
  return {
    mailboxSpace: (name) =>
      spaces(name, async () => {
        try {
          return await deps.client.space(mailboxSpacePath(name))
        } catch (e) {
          if (isNotFound(e)) return undefined
          throw e
        }
      }),
    async placementsFor(inventorySpaceId, syncTargetUid) {
      const refs: PlacementRef[] = []
      for (const { index, group, res } of await named(inventorySpaceId, syncTargetUid)) {
        const slice = res?.ok ? ownedSlice(index, group, res.value) : undefined
        if (res?.ok && slice && names(slice, inventorySpaceId, syncTargetUid))
          refs.push({ spaceId: group.spaceId, placement: res.value, slice })
      }
      return refs
    },
    async invalidPlacementsFor(inventorySpaceId, syncTargetUid) {
      const out: InvalidPlacement[] = []
      for (const { index, group, res } of await named(inventorySpaceId, syncTargetUid)) {
        const slice = res && !res.ok ? ownedSlice(index, group, res.problem.object) : undefined
        if (res && !res.ok && slice && names(slice, inventorySpaceId, syncTargetUid))
          out.push({ spaceId: group.spaceId, problem: res.problem })
      }
      return out
    },
    async unknownPlacement(spaceId, name) {
      const res = await placement(spaceId, name)
      if (!res) return undefined
      if (!res.ok) return res.problem
      return (await sliceList()).invalid.find(
        (p) => spaceOf(p.object) === spaceId && placementOfSlice(p.object) === name
      )
    },
    invalidSlices: async () => (await sliceList()).invalid,
    meetingDestinations: async () => (await sliceList()).meeting,
    space: (spaceId) =>
      workloads(spaceId, () => readSpace({ ...deps, registry }, spaceId, grantOf)),
    registry,
    customizers: (spaceId) =>
      customizers(spaceId, async () => {
        const live = await listLive(spaceId, CUSTOMIZERS)
        return new Map(live.map((o) => [qualifiedName(o), decodeObject(CustomizerSchema, o)]))
      }),
    locations: (spaceId) =>
      locations(spaceId, async () => {
        const live = decodeEach(LocationSchema, await listLive(spaceId, LOCATIONS), onInvalid)
        return new Map(live.map((o) => [qualifiedName(o), o]))
      }),
    location: namedLocations,
    tenancy,
    grantOf,
  }
}
