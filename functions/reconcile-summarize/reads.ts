/**
 * The reads of one summarize batch, shared by its keys and dropped with it (memoized promises, so
 * safe under the batch's concurrency; each new batch re-reads the world, so the step stays
 * level-based). The workload spaces, their registries and the mailbox spaces come from the
 * translate step's snapshot, so a placement selects here exactly what the translator sends. Added:
 * a space's live EdgePlacements with the destinations of the slices they own; an inventory space's
 * SyncTargets (by uid, for heartbeats) and Locations (by name, for their labels), one list each,
 * and its edges' leases (one key-value Query per page);
 * a mailbox's manifest (one GetItem) and the states of the copies asked for (one BatchGetItem per
 * 100 copies not read yet in the batch); a space's Summarizers; the Events the step recorded in a
 * space (one list of the space's Events, all namespaces). A failed read rejects its memo, so
 * every key that needed it fails and is retried; nothing is computed from a partial read.
 * EdgePlacements, slices, SyncTargets and Locations are decoded once by their schemas as they are
 * read (lib/apis/decode.ts); one that does not decode is logged once per batch and left out, but
 * an EdgePlacement that does not decode, or any slice of one that does, is kept in `unknownIn`:
 * what it selects or where it goes is unknown, not absent, and the step removes nothing on its
 * account.
 */

import { type DecodeProblem, decodeEach, reportInvalid } from '../../lib/apis/decode.ts'
import { LocationSchema, SyncTargetSchema } from '../../lib/apis/edge-inventory.ts'
import type {
  EdgePlacementObject,
  LocationObject,
  SyncTargetObject,
} from '../../lib/apis/edge-objects.ts'
import { EdgePlacementSchema, SinglePlacementSliceSchema } from '../../lib/apis/edge-v1alpha1.ts'
import {
  EDGE_PLACEMENTS,
  LOCATIONS,
  PLACEMENT_SLICES,
  SUMMARIZERS,
  SYNC_TARGETS,
} from '../../lib/apis/gvr.ts'
import { leasesOf } from '../../lib/edge/lease.ts'
import { isNotFound } from '../../lib/errors.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import { serviceProviderSpaceCheck } from '../../lib/hub/service-provider-space.ts'
import { collectionsOf } from '../../lib/hub/space-collections.ts'
import type { Space } from '../../lib/hub/spaces.ts'
import type { Registry } from '../../lib/kube/registry.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import type { Logger } from '../../lib/log.ts'
import { memo } from '../../lib/placement/batch-memo.ts'
import { canonicalDestinations, type Destination } from '../../lib/placement/destinations.ts'
import type { SliceCache } from '../../lib/placement/slice-cache.ts'
import { mergeSlices } from '../../lib/placement/slice-groups.ts'
import { placementOfSlice } from '../../lib/placement/slice-owner.ts'
import { createSnapshot, type Snapshot } from '../../lib/placement/snapshot.ts'
import { entryKey } from '../../lib/store/projection-diff.ts'
import {
  type CopyKey,
  contentVersion,
  type ManifestEntry,
  type ProjectionStore,
  type StoredCopyState,
} from '../../lib/store/projection-types.ts'
import type { KvStore } from '../../lib/store/types.ts'
import { lastHeard } from '../../lib/summarize/liveness.ts'
import { EVENT_COMPONENT, SUMMARIZE_STEP } from './names.ts'

export type ReadsDeps = {
  client: HubClient
  kv: KvStore
  projections: ProjectionStore
  registry(spaceId: string): Promise<Registry>
  log: Logger
  slices?: SliceCache
}

/** A live EdgePlacement and the destinations of the slice it owns (none without one). */
export type PlacementInfo = { placement: EdgePlacementObject; destinations: Destination[] }

/**
 * A placement of the space whose content is unknown: `placement` when the EdgePlacement does not
 * decode (what it selects is unknown; `destinations` from its slice when that decodes), `slice`
 * when it decodes but its slice does not (where it goes is unknown).
 */
export type UnknownPlacement = {
  what: 'placement' | 'slice'
  problem: DecodeProblem
  destinations?: Destination[]
}

type SpacePlacements = { valid: PlacementInfo[]; unknown: UnknownPlacement[] }

export type Inventory = {
  syncTargets: Map<string, SyncTargetObject>
  locations: Map<string, LocationObject>
  /** The last renewal of each SyncTarget's lease, by uid (lib/edge/lease.ts). */
  leases: Map<string, number>
}

/** When a SyncTarget of the inventory was last heard from (lib/summarize/liveness.ts). */
export const heardAt = (inv: Inventory | undefined, uid: string) =>
  lastHeard(inv?.syncTargets.get(uid), inv?.leases.get(uid))

export type MailboxView = { space: Space; version: number; entries: Map<string, ManifestEntry> }

export type Reads = {
  snapshot: Snapshot
  placementsIn(spaceId: string): Promise<PlacementInfo[]>
  /** The live placements of the space that do not decode, or whose slice does not. */
  unknownIn(spaceId: string): Promise<UnknownPlacement[]>
  inventory(spaceId: string): Promise<Inventory>
  /** A ready mailbox's manifest entries by entryKey; undefined when it does not exist (yet). */
  mailbox(name: string): Promise<MailboxView | undefined>
  states(mailbox: MailboxView, keys: readonly CopyKey[]): Promise<Map<string, StoredCopyState>>
  summarizers(spaceId: string): Promise<KubeObject[]>
  /** The Events this step recorded in the space (any placement's; events.ts). */
  events(spaceId: string): Promise<KubeObject[]>
}

const EVENTS = { group: '', version: 'v1', resource: 'events' }

const live = (o: Pick<KubeObject, 'metadata'>) => !o.metadata.deletionTimestamp

export function createReads(deps: ReadsDeps): Reads {
  const onInvalid = (p: DecodeProblem) => reportInvalid(deps.log, SUMMARIZE_STEP, p)
  const snapshot = createSnapshot({
    client: deps.client,
    registry: deps.registry,
    collections: (spaceId) => collectionsOf(deps.kv, spaceId),
    spCheck: serviceProviderSpaceCheck(deps.kv),
    onInvalid,
    ...(deps.slices ? { slices: deps.slices } : {}),
  })
  const placements = memo<SpacePlacements>()
  const inventories = memo<Inventory>()
  const mailboxes = memo<MailboxView | undefined>()
  const summarizers = memo<KubeObject[]>()
  const events = memo<KubeObject[]>()
  const states = new Map<string, Promise<StoredCopyState | undefined>>()
  const listOrNone = async (spaceId: string, gvr: typeof SYNC_TARGETS) => {
    try {
      return (await deps.client.list(spaceId, gvr)).filter(live)
    } catch (e) {
      if (isNotFound(e)) return []
      throw e
    }
  }
  const spacePlacements = (spaceId: string) =>
    placements(spaceId, async (): Promise<SpacePlacements> => {
      const [eps, slices] = await Promise.all([
        listOrNone(spaceId, EDGE_PLACEMENTS),
        deps.client.list(spaceId, PLACEMENT_SLICES).catch((e) => {
          if (isNotFound(e)) return []
          throw e
        }),
      ])
      const badSlices: DecodeProblem[] = []
      const decoded = decodeEach(SinglePlacementSliceSchema, slices, (p) => {
        badSlices.push(p)
        onInvalid(p)
      })
      const unknown: UnknownPlacement[] = []
      const ofPlacement = (name: string | undefined) => (s: Pick<KubeObject, 'metadata'>) =>
        placementOfSlice(s) === name
      /** The union of the placement's live slices that this incarnation owns. */
      const ownedSlice = (placement: Pick<KubeObject, 'metadata'>) => {
        const mine = decoded.filter((s) => live(s) && ofPlacement(placement.metadata.name)(s))
        return mergeSlices(mine, placement)
      }
      const badPlacements: DecodeProblem[] = []
      const valid = decodeEach(EdgePlacementSchema, eps, (p) => {
        badPlacements.push(p)
        onInvalid(p)
      }).map((placement) => {
        const slice = ownedSlice(placement)
        const bad = badSlices.find((p) => ofPlacement(placement.metadata.name)(p.object))
        if (bad) unknown.push({ what: 'slice', problem: bad })
        const destinations = slice ? canonicalDestinations(slice.destinations ?? []) : []
        return { placement, destinations }
      })
      for (const problem of badPlacements) {
        const slice = ownedSlice(problem.object)
        const destinations = slice ? canonicalDestinations(slice.destinations ?? []) : undefined
        unknown.push({ what: 'placement', problem, ...(destinations ? { destinations } : {}) })
      }
      return { valid, unknown }
    })
  return {
    snapshot,
    placementsIn: async (spaceId) => (await spacePlacements(spaceId)).valid,
    unknownIn: async (spaceId) => (await spacePlacements(spaceId)).unknown,
    inventory: (spaceId) =>
      inventories(spaceId, async () => {
        const [sts, locs, leases] = await Promise.all([
          listOrNone(spaceId, SYNC_TARGETS).then((l) => decodeEach(SyncTargetSchema, l, onInvalid)),
          listOrNone(spaceId, LOCATIONS).then((l) => decodeEach(LocationSchema, l, onInvalid)),
          leasesOf(deps.kv, spaceId),
        ])
        return {
          syncTargets: new Map(sts.map((o) => [o.metadata.uid ?? '', o])),
          locations: new Map(locs.map((o) => [o.metadata.name ?? '', o])),
          leases,
        }
      }),
    mailbox: (name) =>
      mailboxes(name, async () => {
        const space = await snapshot.mailboxSpace(name)
        if (space?.phase !== 'Ready') return undefined
        const manifest = await deps.projections.getManifest(space.id)
        const entries = new Map((manifest?.entries ?? []).map((e) => [entryKey(e), e]))
        return { space, version: manifest ? contentVersion(manifest) : 0, entries }
      }),
    async states(mailbox, keys) {
      const id = (k: CopyKey) => `${mailbox.space.id}\u0000${entryKey(k)}`
      const missing = keys.filter((k) => !states.has(id(k)))
      if (missing.length > 0) {
        const read = deps.projections.getCopyStates(mailbox.space.id, missing)
        for (const k of missing)
          states.set(
            id(k),
            read.then((m) => m.get(entryKey(k)))
          )
      }
      const out = new Map<string, StoredCopyState>()
      for (const k of keys) {
        const state = await states.get(id(k))
        if (state) out.set(entryKey(k), state)
      }
      return out
    },
    summarizers: (spaceId) => summarizers(spaceId, () => listOrNone(spaceId, SUMMARIZERS)),
    events: (spaceId) =>
      events(spaceId, () =>
        deps.client.list(spaceId, EVENTS, {
          predicate: (e) =>
            (e as { reportingComponent?: unknown }).reportingComponent === EVENT_COMPONENT,
        })
      ),
  }
}
