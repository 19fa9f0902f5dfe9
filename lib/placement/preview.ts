/**
 * What an EdgePlacement would do if it were stored now, without writing anything: the preview a
 * server dry run of an EdgePlacement answers with in `status.preview` (lib/hub/placement-hooks.ts),
 * which the dashboard can also ask for directly. It is computed by the steps' own rules: the where
 * of where-reads.ts (the Locations it would select, its destinations one per SyncTarget and the
 * Locations it would not select, with why) and the what of translate — the workload space read as
 * the steps' snapshot reads it (snapshot.ts) and the placement's selection over it with the object
 * categories (select.ts, lib/apis/categories.ts): the objects it would send, those it reaches but
 * never sends, and per destination what arrives there from this placement, the Namespaces its
 * objects need included (a built-in namespace is never sent), at the version the workload space
 * prefers and before customization; other placements naming the same SyncTarget add their own.
 * Every list is bounded (lib/apis/placement-preview.ts). Reads: one list of Locations across
 * spaces, the SyncTargets of the matched Locations' spaces, the mailbox Workspaces when there are
 * destinations, and the workload space's snapshot.
 */
import { type Builtins, builtinsFrom } from '../apis/builtins.ts'
import type { DecodeProblem } from '../apis/decode.ts'
import type { EdgePlacementObject } from '../apis/edge-objects.ts'
import {
  MAX_PREVIEW_LISTED,
  MAX_PREVIEW_OBJECTS_PER_DESTINATION,
  type PlacementPreview,
  type PreviewObjectRef,
} from '../apis/placement-preview.ts'
import { createHubClient, type HubClient } from '../hub/client.ts'
import type { HubDeps } from '../hub/deps.ts'
import { collectionsOf } from '../hub/space-collections.ts'
import { registryForSpace } from '../hub/space-registry.ts'
import type { Registry } from '../kube/registry.ts'
import { CLUSTER_ANNOTATION } from '../kube/types.ts'
import { mailboxOfDestination, uniqueDestinations } from './destinations.ts'
import { selectForPlacement } from './select.ts'
import { createSnapshot } from './snapshot.ts'
import type { Selection, SourceObject } from './types.ts'
import { resolveWhere } from './where-reads.ts'

/** Field manager of the preview's hub client (it only reads). */
export const PREVIEW_MANAGER = 'edgeplane-preview'

export type PreviewDeps = {
  client: HubClient
  /** The registry of a space (resources, preferred versions). */
  registry(spaceId: string): Promise<Registry>
  /** The collections of a space that may hold objects (lib/hub/space-collections.ts). */
  collections?(spaceId: string): Promise<ReadonlySet<string> | undefined>
  /** What every edge cluster has built in; default the kube four namespaces. */
  builtins?: Builtins
  /** Told of each stored edge object that does not decode (it is left out). */
  onInvalid?(problem: DecodeProblem): void
}

/** The preview's dependencies from a hub's: its registries, collections and built-ins. */
export function previewDepsOf(
  hub: HubDeps,
  client: HubClient = createHubClient(hub, { fieldManager: PREVIEW_MANAGER })
): PreviewDeps {
  return {
    client,
    registry: (spaceId) => registryForSpace(hub, spaceId),
    collections: (spaceId) => collectionsOf(hub.kv, spaceId),
    ...(hub.builtins ? { builtins: hub.builtins } : {}),
  }
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
const refKey = (r: { group: string; resource: string; namespace?: string; name: string }) => [
  r.group,
  r.resource,
  r.namespace ?? '',
  r.name,
]
const byRef = (a: PreviewObjectRef, b: PreviewObjectRef) => {
  const x = refKey(a)
  const y = refKey(b)
  return x.reduce((c, v, i) => c || compare(v, y[i] ?? ''), 0)
}

const bounded = <T>(all: readonly T[], max = MAX_PREVIEW_LISTED) => ({
  count: all.length,
  items: all.slice(0, max),
})

/** A source object as the previews name it. */
export function refOf(o: SourceObject): PreviewObjectRef {
  const namespace = o.namespaced ? o.object.metadata.namespace : undefined
  return {
    group: o.group,
    version: o.version,
    resource: o.resource,
    ...(namespace ? { namespace } : {}),
    name: o.object.metadata.name ?? '',
  }
}

/**
 * What the placement sends to each of its destinations: its selected objects, and a Namespace for
 * every selected namespace and every namespace of a selected object that it does not select
 * itself, unless the namespace is built into every edge cluster.
 */
function received(selection: Selection, builtins: Builtins): PreviewObjectRef[] {
  const refs = selection.objects.map(refOf)
  const namespaces = new Set(selection.namespaces)
  for (const r of refs) if (r.namespace) namespaces.add(r.namespace)
  const own = new Set(
    refs.filter((r) => r.group === '' && r.resource === 'namespaces').map((r) => r.name)
  )
  for (const ns of namespaces)
    if (!own.has(ns) && !builtins.namespaces.has(ns))
      refs.push({ group: '', version: 'v1', resource: 'namespaces', name: ns })
  return refs.sort(byRef)
}

/** What `ep`, an EdgePlacement of the workload space `spaceId`, would do now (reads only). */
export async function previewPlacement(
  deps: PreviewDeps,
  spaceId: string,
  ep: EdgePlacementObject
): Promise<PlacementPreview> {
  const onInvalid = (p: DecodeProblem) => deps.onInvalid?.(p)
  const builtins = deps.builtins ?? builtinsFrom()
  const snapshot = createSnapshot({
    client: deps.client,
    registry: deps.registry,
    ...(deps.collections ? { collections: deps.collections } : {}),
    onInvalid,
  })
  const [where, space] = await Promise.all([
    resolveWhere(deps.client, spaceId, ep, onInvalid),
    snapshot.space(spaceId),
  ])
  const selection = selectForPlacement(ep, space, builtins)
  const arriving = received(selection, builtins)
  const destinations = uniqueDestinations(where.destinations)
  const { count, items } = where.unselected
  return {
    locations: bounded(
      where.selected.map((l) => ({
        cluster: l.metadata.annotations?.[CLUSTER_ANNOTATION] ?? '',
        name: l.metadata.name ?? '',
      }))
    ),
    destinations: {
      count: destinations.length,
      items: destinations.slice(0, MAX_PREVIEW_LISTED).map((d) => ({
        ...d,
        mailbox: mailboxOfDestination(d),
        objects: bounded(arriving, MAX_PREVIEW_OBJECTS_PER_DESTINATION),
      })),
    },
    objects: bounded(selection.objects.map(refOf)),
    skipped: bounded(
      selection.skipped.map((s) => ({
        group: s.group,
        resource: s.resource,
        ...(s.namespace ? { namespace: s.namespace } : {}),
        name: s.name,
        reason: s.reason,
      }))
    ),
    unselectedLocationCount: count,
    ...(items.length > 0 ? { unselectedLocations: items } : {}),
  }
}
