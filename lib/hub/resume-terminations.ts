/**
 * Finds every Namespace, Workspace and CRD (in every space) that carries a deletionTimestamp and
 * drives its termination again. Used by the cron so a termination interrupted by a crash or an
 * isolate eviction always completes.
 */
import type { HubDeps } from './deps.ts'
import { getSpaceById } from './spaces.ts'
import { finishTermination } from './terminate.ts'

const TERMINATING_KINDS = [
  { group: '', resource: 'namespaces' },
  { group: 'tenancy.kcp.io', resource: 'workspaces' },
  { group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' },
]

export async function resumeTerminations(deps: HubDeps, baseUrl: string): Promise<number> {
  let n = 0
  for (const gr of TERMINATING_KINDS) {
    const res = await deps.objects.list({
      cluster: '*',
      ...gr,
      predicate: (o) => !!o.metadata.deletionTimestamp,
    })
    for (const obj of res.items) {
      const cluster = obj.metadata.annotations?.['kcp.io/cluster'] ?? ''
      const space = await getSpaceById(deps.kv, cluster)
      if (!space) continue
      const key = { cluster, ...gr, namespace: '', name: obj.metadata.name ?? '' }
      await finishTermination(deps, space, key, { baseUrl })
      n++
    }
  }
  return n
}
