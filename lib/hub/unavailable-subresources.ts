/**
 * The subresources a hub refuses because nothing behind it could answer them, and why, worded for
 * the server that answers (`HubDeps.site`): a center space holds desired state only and runs no
 * containers, so logs, exec and port-forward belong to the edge cluster's own API; a simulated edge
 * cluster does run the workload, but as simulated pods (Running and Ready) without a container
 * runtime. The center issues no service-account tokens (a simulated edge does, by RBAC:
 * lib/rbac/service-account-token.ts). Each is a 400 BadRequest, so kubectl prints the reason at
 * once instead of hanging on an upgrade or showing a 404. At the center the answer names where
 * the object runs when that is known (`RunsAt`: the edges its EdgePlacements send it to) with the
 * kubectl command to ask there, for a pod's subresource and for kubectl's lookup of a workload's
 * pods (`podsElsewhere`: `kubectl logs deploy/shop` lists and then watches the pods of its
 * selector, which never come to the center).
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

/** Where an object of a center space runs: its kind, namespace and name, and its edges. */
export type RunsAt = { kind: string; namespace: string; name: string; edges: readonly string[] }

/** kubectl's command for a subresource, on `ref` (`pod/x`, `deployment/x`). */
const COMMANDS: Readonly<Record<string, (ref: string) => string>> = {
  log: (ref) => `logs ${ref}`,
  exec: (ref) => `exec ${ref} -- <command>`,
  attach: (ref) => `attach ${ref}`,
  portforward: (ref) => `port-forward ${ref} <port>`,
}

/** Where `at` runs, and the command for `subresource` at its first edge. */
function whereItRuns(at: RunsAt, subresource: string): string {
  const kind = at.kind.toLowerCase()
  const ref = `${kind}/${at.name}`
  if (at.edges.length === 0)
    return `${at.kind} ${at.name} runs nowhere: no EdgePlacement of this workspace selects it.`
  const edges = `${at.edges.length === 1 ? 'the edge' : 'the edges'} ${at.edges.join(', ')}`
  const command = COMMANDS[subresource]
  const ask = `kubectl --context ${at.edges[0]} -n ${at.namespace}`
  return command
    ? `${at.kind} ${at.name} runs at ${edges}: ${ask} ${command(ref)}`
    : `${at.kind} ${at.name} runs at ${edges}: ask there (${ask} ...).`
}

/** The refusal of `<resource>/<subresource>` on `site`; at the center, `at` says where to ask. */
export function runtimeUnavailable(
  site: HubSite,
  resource: string,
  subresource: string,
  at?: RunsAt
): ApiError {
  const what = `${resource}/${subresource}`
  if (site === 'simulated-edge')
    return badRequest(
      `${what} is not available on a simulated edge cluster: its pods are simulated (Running and Ready without a container runtime) and it runs no containers. Run the workload on a real Kubernetes cluster for ${subresource}.`
    )
  const why = `${what} is not available in an edgeplane workspace: it holds desired state only and runs no containers.`
  if (at) return badRequest(`${why} ${whereItRuns(at, subresource)}`)
  return badRequest(
    `${why} Use the edge cluster's own API (kubectl --context <edge>) for ${subresource}.`
  )
}

/**
 * The refusal of kubectl's lookup of the pods of workload `at` (`kubectl logs deploy/x`, also
 * exec, attach and port-forward of a workload): they run at its edges, never in the workspace.
 */
export function podsElsewhere(at: RunsAt): ApiError {
  return badRequest(
    `the pods of ${at.kind.toLowerCase()} ${at.name} are not in an edgeplane workspace: it holds desired state only and runs no containers. ${whereItRuns(at, 'log')}`
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
