/**
 * The answer to a subresource that needs a running container (log, exec, attach, portforward,
 * proxy...): a 400 saying why (lib/hub/unavailable-subresources.ts). At the center a Pod's names
 * the edges its EdgePlacements send it to and the kubectl command to ask one of them; a Pod that
 * does not exist is its 404, as kube answers.
 */
import type { HubDeps } from '../../lib/hub/deps.ts'
import { getObject } from '../../lib/hub/read.ts'
import type { Target } from '../../lib/hub/target.ts'
import { runtimeUnavailable } from '../../lib/hub/unavailable-subresources.ts'
import { edgesOf } from './object-edges.ts'

export async function runtimeRefusal(deps: HubDeps, t: Target, sub: string): Promise<Error> {
  const site = deps.site ?? 'center'
  if (site !== 'center' || t.info.group !== '' || t.info.resource !== 'pods')
    return runtimeUnavailable(site, t.info.resource, sub)
  await getObject(deps, t)
  const ref = { group: '', resource: 'pods', namespace: t.namespace ?? '', name: t.name ?? '' }
  const edges = await edgesOf(deps, t.space, ref)
  return runtimeUnavailable(site, 'pods', sub, { kind: 'Pod', ...ref, edges })
}
