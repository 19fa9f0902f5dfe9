/**
 * A small HTTP client for the hub: Node's fetch (undici, which keeps connections alive) with the
 * bearer token, JSON bodies, and an error for any status other than the expected one, so a broken
 * hub cannot pass for a fast one. Also the configmap URLs of the root space.
 */

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

/** A client for the hub at `baseUrl` that sends `token` as its bearer token. */
export function createHubClient(baseUrl: string, token: string): HubClient {
  return {
    baseUrl,
    token,
    async call(method, path, opts = {}) {
      const headers: Record<string, string> = { authorization: `Bearer ${token}` }
      let body: string | undefined
      if (opts.body !== undefined) {
        body = JSON.stringify(opts.body)
        headers['content-type'] = opts.contentType ?? 'application/json'
      }
      const res = await fetch(`${baseUrl}${path}`, {
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
      })
      const text = await res.text()
      const expect = opts.expect ?? 200
      if (res.status !== expect)
        throw new Error(`${method} ${path}: expected ${expect}, got ${res.status}: ${text}`)
      return JSON.parse(text) as unknown
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
