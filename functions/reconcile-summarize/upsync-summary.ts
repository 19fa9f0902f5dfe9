/**
 * The upsynced objects of one EdgePlacement: in the mailbox of each of its destinations, the
 * objects marked `edge.kcp.io/upsynced: "true"` that the placement's own `spec.upsync` sets select
 * (lib/upsync/match.ts). Per mailbox, one list per resource its registry serves that some set
 * names (its group or "*" and its resource or "*", in one set), at the preferred version; nothing
 * is read for a placement without upsync sets (the summary then has no `upsync` part). The result
 * counts the objects and the destinations that upsynced any, and lists the first
 * MAX_UPSYNC_LISTED in (group, resource, namespace, name, destination) order.
 *
 * An edge is shared by tenants, so a tenant sees only what is its own there (issue 35): unless
 * the grant of the placement's space says `upsyncAllNamespaces` (always so while the hub is
 * single-team), only objects of the namespaces that space's placements send to that mailbox — the
 * namespaces of the live (not leaving) copies whose manifest sources name the space, a Namespace
 * copy naming its own — and no cluster-scoped object, which no namespace owns. A space that is
 * gone sees none.
 */
import type { EdgePlacementObject } from '../../lib/apis/edge-objects.ts'
import { MAX_UPSYNC_LISTED, type PlacementSummary } from '../../lib/apis/edge-summary.ts'
import type { UpsyncSet } from '../../lib/apis/edge-v1alpha1.ts'
import { UPSYNCED_ANNOTATION } from '../../lib/edge/protocol.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import type { Registry } from '../../lib/kube/registry.ts'
import { CLUSTER_ANNOTATION } from '../../lib/kube/types.ts'
import { mapLimit } from '../../lib/map-limit.ts'
import { type Destination, mailboxOfDestination } from '../../lib/placement/destinations.ts'
import { isUpsyncable, namesResource } from '../../lib/upsync/match.ts'
import type { MailboxView, Reads } from './reads.ts'

export type UpsyncDeps = {
  client: HubClient
  registry(spaceId: string): Promise<Registry>
}

type Listed = NonNullable<PlacementSummary['upsync']>['objects'][number]
type Found = { group: string; resource: string; namespace: string; name: string }

async function upsyncedIn(
  deps: UpsyncDeps,
  spaceId: string,
  sets: readonly UpsyncSet[]
): Promise<Found[]> {
  const registry = await deps.registry(spaceId)
  const infos = registry
    .all()
    .filter((i) => i.verbs.includes('list'))
    .filter((i) => sets.some((s) => namesResource(s, i.group, i.resource)))
  const lists = await mapLimit(infos, 4, async (info) => {
    const version = registry.group(info.group)?.preferredVersion ?? info.versions[0] ?? ''
    const gvr = { group: info.group, version, resource: info.resource }
    const items = await deps.client.list(spaceId, gvr)
    return items
      .filter((o) => o.metadata.annotations?.[UPSYNCED_ANNOTATION] === 'true')
      .map((o) => ({
        group: info.group,
        resource: info.resource,
        namespace: info.namespaced ? (o.metadata.namespace ?? '') : '',
        name: o.metadata.name ?? '',
      }))
      .filter((f) => isUpsyncable(sets, { ...f, namespaced: info.namespaced }))
  })
  return lists.flat()
}

const sortKey = (o: Listed) =>
  [o.group, o.resource, o.namespace ?? '', o.name, o.cluster, o.syncTarget].join('\u0000')

/** The namespaces the copies of `spaceId` use in the mailbox (see the header). */
function ownedNamespaces(view: MailboxView, spaceId: string): Set<string> {
  const owned = new Set<string>()
  for (const e of view.entries.values()) {
    if (e.removing || !(e.sources ?? []).some((s) => s.space === spaceId)) continue
    if (e.namespace) owned.add(e.namespace)
    else if (e.group === '' && e.resource === 'namespaces') owned.add(e.name)
  }
  return owned
}

export async function upsyncSummary(
  deps: UpsyncDeps,
  reads: Reads,
  placement: EdgePlacementObject,
  destinations: readonly Destination[]
): Promise<PlacementSummary['upsync']> {
  const sets = placement.spec?.upsync ?? []
  if (sets.length === 0) return undefined
  const spaceId = placement.metadata.annotations?.[CLUSTER_ANNOTATION] ?? ''
  const grant = await reads.snapshot.grantOf(spaceId)
  const perDestination = await mapLimit(grant ? destinations : [], 8, async (d) => {
    const view = await reads.mailbox(mailboxOfDestination(d))
    if (!view) return []
    const found = await upsyncedIn(deps, view.space.id, sets)
    const owned = grant?.upsyncAllNamespaces ? undefined : ownedNamespaces(view, spaceId)
    return found
      .filter((f) => !owned || (f.namespace !== '' && owned.has(f.namespace)))
      .map(
        ({ namespace, ...f }): Listed => ({
          ...f,
          ...(namespace ? { namespace } : {}),
          cluster: d.cluster,
          syncTarget: d.syncTargetName,
        })
      )
  })
  const all = perDestination.flat().sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : 1))
  return {
    count: all.length,
    destinations: perDestination.filter((l) => l.length > 0).length,
    objects: all.slice(0, MAX_UPSYNC_LISTED),
  }
}

/**
 * The upsync summary of a placement from those of parts of its destinations (its pages:
 * pages/): the counts added up, the first MAX_UPSYNC_LISTED of all in the same order — each
 * part lists its own first ones, so those of the whole are among them.
 */
export function mergeUpsync(
  parts: readonly NonNullable<PlacementSummary['upsync']>[]
): NonNullable<PlacementSummary['upsync']> {
  const all = parts.flatMap((p) => p.objects).sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : 1))
  return {
    count: parts.reduce((n, p) => n + p.count, 0),
    destinations: parts.reduce((n, p) => n + p.destinations, 0),
    objects: all.slice(0, MAX_UPSYNC_LISTED),
  }
}
