/**
 * API-server defaulting on every create, update, patch and apply: the write path runs it on the
 * object about to be stored, with the current object on updates. Every hub fills kube's declared
 * defaults of the built-in kinds (lib/kube/defaults/builtin-defaults.ts: a Deployment's
 * strategy, a container port's protocol...), so what kubectl shows at the center is what a kube
 * cluster would show; nothing is allocated there (no clusterIP, no nodePort: the center routes no
 * traffic). A mailbox space gets none: it holds the translator's copies, which leave the
 * defaults to each edge (lib/placement/project.ts), and what the edges report. A simulated edge
 * cluster sets `deps.defaults`, a full kube-apiserver emulation that fills these too and
 * allocates (a Service's clusterIP, carried over from the stored object on updates). The request
 * and function types live with HubDeps (deps.ts).
 */
import { fillBuiltinDefaults } from '../kube/defaults/builtin-defaults.ts'
import type { KubeObject } from '../kube/types.ts'
import type { HubDeps } from './deps.ts'
import { isMailboxPath } from './mailbox-space.ts'
import type { Target } from './target.ts'

/** The object to default, the stored one it replaces (none on create) and the request's dryRun. */
export type DefaultsRequest = { obj: KubeObject; old?: KubeObject | undefined; dryRun: boolean }

/** `r.obj` with the defaults of `deps.defaults`, else kube's declared defaults of its kind. */
export async function applyDefaults(
  deps: HubDeps,
  t: Target,
  r: DefaultsRequest
): Promise<KubeObject> {
  const { obj, old, dryRun } = r
  if (!deps.defaults) return isMailboxPath(t.space.path) ? obj : fillBuiltinDefaults(obj)
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
