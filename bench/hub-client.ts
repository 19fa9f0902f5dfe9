/**
 * The benchmark's calls to the hub, over the one remote client (lib/remote/remote-client.ts:
 * Node's fetch, which keeps connections alive) with the bearer token and JSON bodies, and a
 * RemoteError for any status other than the expected one, so a broken hub cannot pass for a fast
 * one. Also the configmap URLs of the root space.
 */
import { createRemote, failureOf } from '../lib/remote/remote-client.ts'

export type HubClient = {
  baseUrl: string
  token: string
  /** Sends a request and returns the parsed JSON body; throws unless the status is `expect`. */
  call(
    method: string,
    path: string,
    opts?: { body?: unknown; contentType?: string; expect?: number }
  ): Promise<unknown>
}

/** `/clusters/root/api/v1/namespaces/<ns>/configmaps[/<name>]`, or the namespaces collection. */
export function configMapPath(namespace: string, name?: string): string {
  const base = `/clusters/root/api/v1/namespaces/${encodeURIComponent(namespace)}/configmaps`
  return name === undefined ? base : `${base}/${encodeURIComponent(name)}`
}

export const NAMESPACES_PATH = '/clusters/root/api/v1/namespaces'

/**
 * A client for the hub at `baseUrl` that sends `token` as its bearer token (trusting `ca`, a PEM
 * certificate, besides the system's: npm start's self-signed one).
 */
export function createHubClient(baseUrl: string, token: string, ca?: string): HubClient {
  const remote = createRemote({ baseUrl, token, ...(ca ? { ca } : {}) })
  return {
    baseUrl,
    token,
    async call(method, path, opts = {}) {
      const expect = opts.expect ?? 200
      const what = `${method} ${path} (expected ${expect})`
      const res = await remote.send(path, {
        method,
        ...(opts.body !== undefined ? { body: opts.body } : {}),
        ...(opts.contentType ? { contentType: opts.contentType } : {}),
      })
      if (res.status !== expect) throw await failureOf(res, what)
      return JSON.parse(await res.text()) as unknown
    },
  }
}

/** `metadata.resourceVersion` of a response body, or '' when it has none. */
export function resourceVersionOf(body: unknown): string {
  if (!body || typeof body !== 'object') return ''
  const meta = (body as { metadata?: unknown }).metadata
  if (!meta || typeof meta !== 'object') return ''
  const rv = (meta as { resourceVersion?: unknown }).resourceVersion
  return typeof rv === 'string' ? rv : ''
}
