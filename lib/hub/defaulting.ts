/**
 * Opt-in API-server defaulting. The hub stores objects as written (no `replicas: 1`, no clusterIP);
 * a simulated edge cluster must behave like a real API server and fill in kube's defaults on every
 * create, update, patch and apply. When `deps.defaults` is set (simulated edges only), the write
 * path runs it on the object about to be stored, with the current object on updates so allocated
 * values (a Service's clusterIP) carry over. Without it nothing changes. The request and function
 * types live with HubDeps (deps.ts).
 */
import type { KubeObject } from '../kube/types.ts'
import type { HubDeps } from './deps.ts'
import type { Target } from './target.ts'

/** The object to default, the stored one it replaces (none on create) and the request's dryRun. */
export type DefaultsRequest = { obj: KubeObject; old?: KubeObject | undefined; dryRun: boolean }

/** `r.obj` with the defaults of `deps.defaults`, or unchanged when the hub applies none. */
export async function applyDefaults(
  deps: HubDeps,
  t: Target,
  r: DefaultsRequest
): Promise<KubeObject> {
  const { obj, old, dryRun } = r
  if (!deps.defaults) return obj
  return deps.defaults({
    deps,
    space: t.space,
    group: t.info.group,
    resource: t.info.resource,
    obj,
    ...(old ? { old } : {}),
    dryRun,
  })
}
