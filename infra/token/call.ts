/**
 * The token CLI's requests to the hub's Token API (`/apis/auth.edgeplane.io/v1alpha1/tokens` in
 * root), over the one remote client (lib/remote/remote-client.ts) with an injected transport
 * `send` (node-transport.ts trusting the connection's CA in the CLI, the app's `request` in tests).
 * A refusal rejects with a RemoteError carrying the HTTP code and the Status message.
 */
import { TOKEN_API_VERSION } from '../../lib/apis/tokens.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import type { FetchFn } from '../../lib/remote/node-transport.ts'
import { createRemote } from '../../lib/remote/remote-client.ts'
import { RemoteError } from '../../lib/remote/remote-error.ts'
import type { IssueFlags } from './cli-args.ts'
import type { Connection } from './connection.ts'

export type SendFn = FetchFn

export type TokenObject = KubeObject & {
  spec?: { user?: string; type?: string; spaces?: string[]; groups?: string[] }
  status?: { token?: string; tokenHash?: string; expirationTimestamp?: string }
}

export type Issued = {
  name: string
  token: string
  expirationTimestamp: string
  object: TokenObject
}

const COLLECTION = `/apis/${TOKEN_API_VERSION}/tokens`

/** One call of the token API: `method` on `path` (below the hub URL), with `body` if any. */
type TokenCall = { method: string; path: string; body?: unknown }

async function call(c: Connection, send: SendFn, req: TokenCall): Promise<unknown> {
  const { method, path, body } = req
  const remote = createRemote({ baseUrl: c.hubUrl, token: c.token, fetch: send, timeoutMs: 30_000 })
  const what = `${method} ${remote.baseUrl}${path}`
  const parsed = await remote.call(path, { method, accept: 'application/json', body, what })
  if (parsed === undefined)
    throw new RemoteError(200, `unexpected answer from ${remote.baseUrl}${path}`, {
      kind: 'unreadable',
    })
  return parsed
}

export async function issueToken(c: Connection, send: SendFn, f: IssueFlags): Promise<Issued> {
  const spec: Record<string, unknown> = { type: f.admin ? 'admin' : 'user' }
  if (f.user) spec.user = f.user
  if (f.spaces.length > 0) spec.spaces = f.spaces
  if (f.groups.length > 0) spec.groups = f.groups
  if (f.expirationSeconds !== undefined) spec.expirationSeconds = f.expirationSeconds
  const body = { apiVersion: TOKEN_API_VERSION, kind: 'Token', metadata: { name: f.name }, spec }
  const object = (await call(c, send, { method: 'POST', path: COLLECTION, body })) as TokenObject
  const token = object.status?.token
  if (!token) throw new RemoteError(201, 'the hub answered without a token', { kind: 'unreadable' })
  return {
    name: object.metadata.name ?? f.name,
    token,
    expirationTimestamp: object.status?.expirationTimestamp ?? '',
    object,
  }
}

export async function listTokens(c: Connection, send: SendFn): Promise<TokenObject[]> {
  const list = (await call(c, send, { method: 'GET', path: COLLECTION })) as {
    items?: TokenObject[]
  }
  return Array.isArray(list.items) ? list.items : []
}

export async function revokeToken(c: Connection, send: SendFn, name: string): Promise<void> {
  await call(c, send, { method: 'DELETE', path: `${COLLECTION}/${encodeURIComponent(name)}` })
}
