/**
 * Which workload spaces' objects of one identity (group, resource, namespace, name) one
 * destination gets, when spaces of different trust scopes send it (issue 35: no cross-tenant
 * merge). Pure. Two spaces may be merged only when they share a trust scope by their grants
 * (lib/tenancy/policy.ts `sameTrustScope`; a space that no longer exists, with no grant, shares
 * none; in single-team mode every workload space is in one scope, so nothing changes there).
 * When the spaces sending the identity are not pairwise in one scope it is a conflict, and
 * neither side wins silently (each is told, conflict-report.ts). What the edge gets:
 * - the copy the edge already holds stays with the spaces it came from (the live copy's recorded
 *   sources, `holders`), as long as they are themselves pairwise in one scope, and keeps
 *   following them; a space of their scope that sends it too joins them (merged as usual); a
 *   space of another scope is not sent. Taking a copy away from the scope running it because a
 *   newcomer named the same identity would let any tenant with access to the edge remove another
 *   tenant's object there, and replacing it would hand the edge to the newcomer;
 * - an identity the edge does not hold yet, claimed by two scopes at once, goes to none of them
 *   until one side withdraws: there is no first-come order the server could tell apart;
 * - a copy that mixes spaces no longer in one scope (made before the scopes were drawn, or its
 *   grants changed) goes to none: a mixture is never delivered.
 * Never a mixture: the spaces delivered are always pairwise in one scope.
 */
import { sameTrustScope, type WorkloadGrant } from '../../lib/tenancy/policy.ts'

/** Whether two workload spaces (by id) may have their objects merged. */
export type Trust = (a: string, b: string) => boolean

/** Trust by the spaces' grants (the batch snapshot's `grantOf`); an unknown space trusts none. */
export function trustOf(grants: ReadonlyMap<string, WorkloadGrant | undefined>): Trust {
  return (a, b) => {
    if (a === b) return true
    const ga = grants.get(a)
    const gb = grants.get(b)
    return ga !== undefined && gb !== undefined && sameTrustScope(ga, gb)
  }
}

const pairwise = (spaces: readonly string[], trust: Trust) =>
  spaces.every((a, i) => spaces.slice(i + 1).every((b) => trust(a, b)))

export type Delivery = {
  /** The spaces whose objects are merged into the copy (sorted); empty: no copy is sent. */
  delivered: string[]
  /** Whether spaces of different trust scopes send the identity (a TrustScopeConflict). */
  conflict: boolean
}

/**
 * The spaces (sorted ids) sending an identity, the spaces the destination's live copy of it came
 * from (none when it holds no copy), and the trust between spaces: which are delivered.
 */
export function delivery(
  spaces: readonly string[],
  holders: ReadonlySet<string> | undefined,
  trust: Trust
): Delivery {
  if (pairwise(spaces, trust)) return { delivered: [...spaces], conflict: false }
  const held = spaces.filter((s) => holders?.has(s))
  if (held.length === 0 || !pairwise(held, trust)) return { delivered: [], conflict: true }
  const delivered = [...held]
  for (const s of spaces)
    if (!delivered.includes(s) && delivered.every((d) => trust(d, s))) delivered.push(s)
  return { delivered: delivered.sort(), conflict: true }
}
