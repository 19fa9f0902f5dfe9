/**
 * The kubeconfig the local stack writes for kubectl and client-node: one cluster and one context
 * per space it makes (`contextSpaces`: root, root:espw and, with edges, their inventory
 * root:imw-1; each named after the space path, server `<hub>/clusters/<path>`), all using one
 * user with the admin bearer token, current-context `root`, trusting the hub's certificate. Later
 * additions (edge clusters) pass extra contexts with their own server and token. Written with
 * mode 0600 because it holds tokens.
 */
import { stringify } from 'yaml'
import { writePrivateFile } from './data-dir.ts'
import { EDGE_INVENTORY } from './edges-config.ts'

export type KubeconfigContext = {
  /** Context (and cluster) name. */
  name: string
  server: string
  /** Bearer token; the shared admin user when absent. */
  token?: string
  /** PEM of the CA to trust; the hub's when absent. */
  caPem?: string
}

export type KubeconfigOptions = {
  /** Hub base URL, e.g. http://127.0.0.1:8787. */
  hubUrl: string
  adminToken: string
  /** The name of the user holding `adminToken` (default ADMIN_USER). */
  user?: string
  /** PEM certificate of the hub (self-signed), trusted by every space context. */
  caPem?: string
  /** Space paths that get a context; the first is the current context. */
  spaces: string[]
  extra?: KubeconfigContext[]
}

export const ADMIN_USER = 'edgeplane-admin'

/**
 * The spaces `npm start` makes, each a context: root (the current context) and root:espw always,
 * the edges' inventory space when there are simulated edges (edge-inventory.ts creates it then).
 */
export function contextSpaces(edgeCount: number): string[] {
  return ['root', 'root:espw', ...(edgeCount > 0 ? [EDGE_INVENTORY] : [])]
}

export function spaceContexts(hubUrl: string, spaces: string[]): KubeconfigContext[] {
  return spaces.map((path) => ({ name: path, server: `${hubUrl}/clusters/${path}` }))
}

function clusterEntry(server: string, caPem: string | undefined): Record<string, string> {
  if (!caPem || !server.startsWith('https:')) return { server }
  return { server, 'certificate-authority-data': Buffer.from(caPem).toString('base64') }
}

/** The kubeconfig document as a plain object (kubectl's `Config` v1 shape). */
export function buildKubeconfig(opts: KubeconfigOptions): Record<string, unknown> {
  const contexts = [...spaceContexts(opts.hubUrl, opts.spaces), ...(opts.extra ?? [])]
  const shared = opts.user ?? ADMIN_USER
  const users: { name: string; user: { token: string } }[] = [
    { name: shared, user: { token: opts.adminToken } },
  ]
  const userFor = (c: KubeconfigContext): string => {
    if (c.token === undefined) return shared
    users.push({ name: `${c.name}-user`, user: { token: c.token } })
    return `${c.name}-user`
  }
  return {
    apiVersion: 'v1',
    kind: 'Config',
    preferences: {},
    clusters: contexts.map((c) => ({
      name: c.name,
      cluster: clusterEntry(c.server, c.caPem ?? opts.caPem),
    })),
    contexts: contexts.map((c) => ({
      name: c.name,
      context: { cluster: c.name, user: userFor(c) },
    })),
    users,
    'current-context': contexts[0]?.name ?? '',
  }
}

export function renderKubeconfig(opts: KubeconfigOptions): string {
  return stringify(buildKubeconfig(opts))
}

export async function writeKubeconfig(path: string, opts: KubeconfigOptions): Promise<void> {
  await writePrivateFile(path, renderKubeconfig(opts))
}
