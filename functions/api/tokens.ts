/**
 * The HTTP side of edgeplane's Tokens (`/apis/auth.edgeplane.io/v1alpha1/tokens` in root; see
 * lib/apis/tokens.ts): every verb on them, as on the tenancy kinds, is admin only, and a create is an issue
 * (lib/hub/tokens.ts), answered 201 with the token once in `status.token`. Reads and deletes are
 * the generic ones (functions/api/resources.ts); deleting revokes through the kind's hook.
 */
import { isGrantResource } from '../../lib/apis/grants.ts'
import { isTokenResource } from '../../lib/apis/tokens.ts'
import { authorizeAdmin, type Principal } from '../../lib/auth/tokens.ts'
import type { HubDeps } from '../../lib/hub/deps.ts'
import type { WriteOptions } from '../../lib/hub/options.ts'
import type { Target } from '../../lib/hub/target.ts'
import { issueToken } from '../../lib/hub/tokens.ts'
import { readObjectBody } from './body.ts'
import { json } from './respond.ts'

/**
 * 403 unless admin, when `t` addresses the Tokens or the tenancy kinds (Inventory,
 * PlacementGrant: lib/apis/grants.ts); nothing for other resources.
 */
export function authorizeTokens(t: Target, principal: Principal): void {
  if (isTokenResource(t.info)) authorizeAdmin(principal, 'manage tokens')
  if (isGrantResource(t.info)) authorizeAdmin(principal, `manage ${t.info.resource}`)
}

/** POST on the Tokens: issue one. */
export async function createToken(
  deps: HubDeps,
  t: Target,
  req: Request,
  opts: WriteOptions
): Promise<Response> {
  const res = await issueToken(deps, t, await readObjectBody(req), opts)
  return json(res.object, 201, res.warnings)
}

export { isTokenResource }
