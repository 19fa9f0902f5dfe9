/**
 * Where the token CLI sends its requests and with which admin token: flags first (`--hub`,
 * `--token-file`, `--ca-file`), then a kubeconfig when `--kubeconfig` is given (its context's
 * server, with any `/clusters/<space>` suffix dropped, its user's `token` or `tokenFile`, its
 * cluster's `certificate-authority-data` or `certificate-authority`), else the running local
 * stack (stack.json: URL, admin-token file, certificate), also for a `--hub` that names it by
 * another loopback name (infra/stack-discovery.ts). Files are read through `read`, so the
 * resolution is testable without a disk. An error message names what is missing.
 */
import { parse } from 'yaml'
import type { StackInfo } from '../local/stack-info.ts'
import { isStackHub, stackCaFor } from '../stack-discovery.ts'
import type { ConnectionFlags } from './cli-args.ts'

export type Connection = { hubUrl: string; token: string; caPem?: string }

type Source = { hubUrl?: string; token?: string; caPem?: string }

type Named<T> = { name?: unknown } & T
const rec = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {}
const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined)

function entry(doc: Record<string, unknown>, list: string, name: unknown, field: string) {
  const items = Array.isArray(doc[list]) ? (doc[list] as Named<Record<string, unknown>>[]) : []
  return rec(items.find((i) => i?.name === name)?.[field])
}

/** The hub base URL of a kubeconfig server (`.../clusters/<space>` names one space of it). */
export function hubBase(server: string): string {
  return server.replace(/\/+$/, '').replace(/\/clusters\/[^/]+$/, '')
}

async function fromKubeconfig(
  path: string,
  context: string | undefined,
  read: (path: string) => Promise<string>
): Promise<Source | string> {
  const doc = rec(parse(await read(path)))
  const name = context ?? str(doc['current-context'])
  const ctx = entry(doc, 'contexts', name, 'context')
  if (!name || Object.keys(ctx).length === 0) return `no context ${name ?? '(current)'} in ${path}`
  const cluster = entry(doc, 'clusters', ctx.cluster, 'cluster')
  const user = entry(doc, 'users', ctx.user, 'user')
  const server = str(cluster.server)
  const caData = str(cluster['certificate-authority-data'])
  const caFile = str(cluster['certificate-authority'])
  const tokenFile = str(user.tokenFile)
  const out: Source = {}
  if (server) out.hubUrl = hubBase(server)
  const token = str(user.token) ?? (tokenFile ? (await read(tokenFile)).trim() : undefined)
  if (token) out.token = token
  if (caData) out.caPem = Buffer.from(caData, 'base64').toString('utf8')
  else if (caFile) out.caPem = await read(caFile)
  return out
}

export async function resolveConnection(
  flags: ConnectionFlags,
  stack: StackInfo | undefined,
  read: (path: string) => Promise<string>
): Promise<Connection | string> {
  let base: Source = {}
  if (flags.kubeconfig) {
    const kc = await fromKubeconfig(flags.kubeconfig, flags.context, read)
    if (typeof kc === 'string') return kc
    base = kc
  } else if (stack) {
    const stackUrl = stack.url.replace(/\/+$/, '')
    if (!flags.hubUrl || isStackHub(flags.hubUrl, stack)) {
      base = { hubUrl: stackUrl, token: (await read(stack.adminTokenFile)).trim() }
      const ca = stackCaFor(stackUrl, stack)
      if (ca) base.caPem = await read(ca)
    }
  }
  const hubUrl = flags.hubUrl ?? base.hubUrl
  const token = flags.tokenFile ? (await read(flags.tokenFile)).trim() : base.token
  const caPem = flags.caFile ? await read(flags.caFile) : base.caPem
  if (!hubUrl)
    return 'no hub: give --hub (or EDGEPLANE_HUB) or --kubeconfig, or start the local stack'
  if (!token) return 'no admin token: give --token-file (or EDGEPLANE_TOKEN_FILE) or --kubeconfig'
  return { hubUrl, token, ...(caPem ? { caPem } : {}) }
}
