/**
 * The tenant identities at the edge (tenant-identity.ts), kept by the agent so the edge's own RBAC
 * judges each tenant's objects: before the Namespaces are applied, each tenant's ServiceAccount
 * and ClusterRoles (and the binding of the cluster-scoped one); before the namespaced objects,
 * the RoleBindings in the namespaces it may use (tenant-rights.ts says which, and what each role
 * holds). Everything else the edge refuses the tenant, as kube refuses a ServiceAccount without
 * rights, and RBAC's escalation check stops a tenant allowed to write roles or bindings from
 * granting more than it holds (binding cluster-admin included). Writes go by server-side apply as
 * the agent, each skipped while it is what was last written (for REMEMBER_MS), so an idle poll
 * costs nothing. Rights of tenants that left are not removed (they hold no entries to use them
 * with). Impersonation needs the bootstrap's Role (lib/edge/manifests-tenants.ts): the agent asks
 * the edge once per poll that has tenants' entries (a SelfSubjectAccessReview) and, on an edge
 * bootstrapped without it, applies as itself with a warning.
 */

import { TENANTS_NAMESPACE } from '../edge/manifests-tenants.ts'
import type { ObjectRef } from '../edge/protocol.ts'
import type { KubeObject } from '../kube/types.ts'
import type { Logger } from '../log.ts'
import type { EdgeKube } from './kube-client.ts'
import { hashOf } from './refs.ts'
import type { Planned } from './selection.ts'
import {
  TENANT_RBAC_PREFIX,
  TENANT_SPACE_ANNOTATION,
  tenantsOf,
  tenantUser,
} from './tenant-identity.ts'
import { namespaceBinding, objectsOf, rightsOf, usableNamespaces } from './tenant-rights.ts'

const RBAC = 'rbac.authorization.k8s.io'
const MANAGER = 'edgeplane-agent-tenants'
/** How long a written object is trusted to be still as written (then it is applied again). */
export const REMEMBER_MS = 10 * 60_000

export type TenantBinderDeps = {
  kube: EdgeKube
  /** The agent's own namespace: never a tenant's. */
  selfNamespace: string
  log: Logger
  now: () => Date
}

export type TenantBinder = {
  /** Before each apply phase: the accounts and roles (phase 0), the namespace bindings (phase 2). */
  beforePhase(phase: 0 | 1 | 2, planned: readonly Planned[]): Promise<void>
  /** The clients an entry is applied with: one per tenant, or the agent's own. */
  clientsFor(p: Planned): EdgeKube[]
}

export function createTenantBinder(deps: TenantBinderDeps): TenantBinder {
  const written = new Map<string, { hash: string; at: number }>()
  const clients = new Map<string, EdgeKube>()
  let impersonating = false
  let held: { map: Map<string, Set<string>>; at: number } | undefined
  let warned = false

  async function canImpersonate(): Promise<boolean> {
    const review = {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: {
        resourceAttributes: {
          verb: 'impersonate',
          resource: 'serviceaccounts',
          namespace: TENANTS_NAMESPACE,
        },
      },
    }
    const ref = {
      group: 'authorization.k8s.io',
      version: 'v1',
      resource: 'selfsubjectaccessreviews',
      namespace: '',
      name: 'review',
    }
    const answer = (await deps.kube.create(ref, review as unknown as KubeObject)) as unknown as {
      status?: { allowed?: boolean }
    }
    return answer.status?.allowed === true
  }

  async function ensure(item: { ref: ObjectRef; obj: unknown }) {
    const key = `${item.ref.resource}/${item.ref.namespace}/${item.ref.name}`
    const hash = hashOf(item.obj)
    const at = deps.now().getTime()
    const last = written.get(key)
    if (last && last.hash === hash && at - last.at < REMEMBER_MS) return
    await deps.kube.apply(item.ref, item.obj as KubeObject, { fieldManager: MANAGER, force: true })
    written.set(key, { hash, at })
  }

  async function prepare(planned: readonly Planned[]) {
    const rights = rightsOf(planned)
    impersonating = rights.size > 0 && deps.kube.as !== undefined && (await canImpersonate())
    if (rights.size > 0 && !impersonating && !warned) {
      warned = true
      deps.log.warn(
        'the edge does not let the agent impersonate its tenants (bootstrap manifests without edgeplane-tenants?): applying as the agent'
      )
    }
    if (!impersonating) return
    for (const [t, r] of rights) for (const item of objectsOf(t, r)) await ensure(item)
  }

  /** Per namespace, the tenants the edge binds there now (their RoleBindings' tenant label). */
  async function heldNamespaces(): Promise<Map<string, Set<string>>> {
    const at = deps.now().getTime()
    if (held && at - held.at < REMEMBER_MS) return held.map
    const map = new Map<string, Set<string>>()
    const bindings = await deps.kube.list({ group: RBAC, version: 'v1', resource: 'rolebindings' })
    for (const b of bindings) {
      const space = b.metadata.annotations?.[TENANT_SPACE_ANNOTATION]
      const ns = b.metadata.namespace
      if (!space || !ns || !b.metadata.name?.startsWith(TENANT_RBAC_PREFIX)) continue
      map.set(ns, (map.get(ns) ?? new Set()).add(space))
    }
    held = { map, at }
    return map
  }

  async function bindNamespaces(planned: readonly Planned[]) {
    if (!impersonating) return
    const now = await heldNamespaces()
    for (const [t, namespaces] of usableNamespaces(planned, deps.selfNamespace, now))
      for (const ns of namespaces) {
        try {
          await ensure(namespaceBinding(t, ns))
          now.set(ns, (now.get(ns) ?? new Set()).add(t))
        } catch (e) {
          // A namespace that is not there: the tenant's objects in it fail as they would anyway.
          const error = e instanceof Error ? e.message : String(e)
          deps.log.warn('could not bind a tenant in a namespace', { namespace: ns, error })
        }
      }
  }

  return {
    async beforePhase(phase, planned) {
      if (phase === 0) await prepare(planned)
      if (phase === 2) await bindNamespaces(planned)
    },
    clientsFor(p) {
      const tenants = tenantsOf(p.entry)
      const as = deps.kube.as
      if (!impersonating || tenants.length === 0 || !as) return [deps.kube]
      return tenants.map((t) => {
        const c = clients.get(t) ?? as(tenantUser(t))
        clients.set(t, c)
        return c
      })
    },
  }
}
