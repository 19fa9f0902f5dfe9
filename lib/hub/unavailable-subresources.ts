/**
 * The subresources a hub refuses because nothing behind it could answer them, and why, worded for
 * the server that answers (`HubDeps.site`): a center space holds desired state only and runs no
 * containers, so logs, exec and port-forward belong to the edge cluster's own API; a simulated edge
 * cluster does run the workload, but as simulated pods (Running and Ready) without a container
 * runtime. The center issues no service-account tokens (a simulated edge does, by RBAC:
 * lib/rbac/service-account-token.ts). Each is a 400 BadRequest, so kubectl prints the reason at
 * once instead of hanging on an upgrade or showing a 404.
 */
import { type ApiError, badRequest } from '../errors.ts'

/** What a hub serves: kcp-style center spaces (the default) or one simulated edge cluster. */
export type HubSite = 'center' | 'simulated-edge'

/** Subresources that need a running container or node. */
const RUNTIME_SUBRESOURCES: ReadonlySet<string> = new Set([
  'log',
  'exec',
  'attach',
  'portforward',
  'proxy',
  'eviction',
  'binding',
  'ephemeralcontainers',
])

export const needsRuntime = (subresource: string) => RUNTIME_SUBRESOURCES.has(subresource)

/** The refusal of `<resource>/<subresource>` on `site`. */
export function runtimeUnavailable(site: HubSite, resource: string, subresource: string): ApiError {
  const what = `${resource}/${subresource}`
  if (site === 'simulated-edge')
    return badRequest(
      `${what} is not available on a simulated edge cluster: its pods are simulated (Running and Ready without a container runtime) and it runs no containers. Run the workload on a real Kubernetes cluster for ${subresource}.`
    )
  return badRequest(
    `${what} is not available in an edgeplane workspace: it holds desired state only and runs no containers. Use the edge cluster's own API (kubectl --context <edge>) for ${subresource}.`
  )
}

/** The refusal of `serviceaccounts/token` (kubectl create token) on `site`. */
export function tokenUnavailable(site: HubSite): ApiError {
  if (site === 'simulated-edge')
    return badRequest(
      "serviceaccounts/token on a simulated edge cluster only answers a create, with RBAC on (kubectl create token <account>); use the cluster's admin token from its kubeconfig otherwise."
    )
  return badRequest(
    'serviceaccounts/token is not available in an edgeplane workspace: it issues no service-account tokens. Ask the hub operator for an edgeplane token scoped to this workspace.'
  )
}
