/**
 * The token CLI's requests to the hub's Token API (`/apis/auth.edgeplane.io/v1alpha1/tokens` in
 * root), through an injected `send` (infra/local/hub-request.ts in the CLI, the app's `request`
 * in tests). A refusal rejects with a TokenCliError carrying the HTTP code and the Status message.
 */
import { TOKEN_API_VERSION } from '../../lib/apis/tokens.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import type { IssueFlags } from './cli-args.ts'
import type { Connection } from './connection.ts'

export type SendFn = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string }
) => Promise<Response>

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

export class TokenCliError extends Error {
  override name = 'TokenCliError'
  code: number
  constructor(code: number, message: string) {
    super(message)
    this.code = code
  }
}

const collection = (c: Connection) => `${c.hubUrl}/apis/${TOKEN_API_VERSION}/tokens`

async function call(
  c: Connection,
  send: SendFn,
  method: string,
  url: string,
  body?: unknown
): Promise<unknown> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${c.token}`,
    accept: 'application/json',
  }
  if (body !== undefined) headers['content-type'] = 'application/json'
  const res = await send(url, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  })
  const text = await res.text()
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    parsed = undefined
  }
  if (!res.ok) {
    const message = (parsed as { message?: unknown } | undefined)?.message
    const why = typeof message === 'string' ? message : text.slice(0, 300) || res.statusText
    throw new TokenCliError(res.status, `${method} ${url}: HTTP ${res.status}: ${why}`)
  }
  if (parsed === undefined) throw new TokenCliError(res.status, `unexpected answer from ${url}`)
  return parsed
}

export async function issueToken(c: Connection, send: SendFn, f: IssueFlags): Promise<Issued> {
  const spec: Record<string, unknown> = { type: f.admin ? 'admin' : 'user' }
  if (f.user) spec.user = f.user
  if (f.spaces.length > 0) spec.spaces = f.spaces
  if (f.groups.length > 0) spec.groups = f.groups
  if (f.expirationSeconds !== undefined) spec.expirationSeconds = f.expirationSeconds
  const body = { apiVersion: TOKEN_API_VERSION, kind: 'Token', metadata: { name: f.name }, spec }
  const object = (await call(c, send, 'POST', collection(c), body)) as TokenObject
  const token = object.status?.token
  if (!token) throw new TokenCliError(201, 'the hub answered without a token')
  return {
    name: object.metadata.name ?? f.name,
    token,
    expirationTimestamp: object.status?.expirationTimestamp ?? '',
    object,
  }
}

export async function listTokens(c: Connection, send: SendFn): Promise<TokenObject[]> {
  const list = (await call(c, send, 'GET', collection(c))) as { items?: TokenObject[] }
  return Array.isArray(list.items) ? list.items : []
}

export async function revokeToken(c: Connection, send: SendFn, name: string): Promise<void> {
  await call(c, send, 'DELETE', `${collection(c)}/${encodeURIComponent(name)}`)
}
