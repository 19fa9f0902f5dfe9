/**
 * The tenancy allow list as the selection applies it (select.ts): an object of a privileged
 * resource (lib/tenancy/policy.ts `privilegedResource`: every cluster-scoped resource but
 * Namespaces, and RBAC and admission resources of any scope) goes only when the grants of its
 * workload space list that resource (a PlacementGrant's `spec.resources`; single-team mode grants
 * every resource). Otherwise it is skipped as `NotGranted`, with a message naming the resource
 * and what an administrator would have to grant, and never sent, counted or previewed as sent.
 * Pure; the grant is read with the space's snapshot (snapshot.ts).
 */
import { privilegedResource } from '../tenancy/policy.ts'
import type { ResourceGrant, Skipped, SourceObject } from './types.ts'

/** The grant entry an administrator would add for the object's resource. */
const grantEntry = (o: SourceObject) => `{group: "${o.group}", resource: "${o.resource}"}`

/**
 * Why the object may not go under `grant` (described as `what`), or undefined when its resource
 * needs no grant or is granted.
 */
export function notGranted(
  o: SourceObject,
  grant: ResourceGrant,
  what: string
): Skipped | undefined {
  if (!privilegedResource(o.group, o.resource, o.namespaced)) return undefined
  if (grant.allowsResource(o.group, o.resource)) return undefined
  return {
    group: o.group,
    resource: o.resource,
    namespace: o.object.metadata?.namespace ?? '',
    name: o.object.metadata?.name ?? '',
    reason: 'NotGranted',
    message: `${what} is not sent: its resource needs a grant, and no PlacementGrant covering this space lists ${grantEntry(o)} in spec.resources`,
  }
}
