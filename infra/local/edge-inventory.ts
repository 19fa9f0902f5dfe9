/**
 * Registers the simulated edges in the center as a platform team would with kubectl: the inventory
 * space `root:imw-1` (a Workspace in root, created when missing), and per edge a SyncTarget and a
 * Location named after it, both labelled `loc-name=<name>` plus the configured labels, the
 * SyncTarget also `id=<name>`, the Location's instanceSelector matching that. Objects are written
 * by server-side apply under the field manager `edgeplane-local` with force, so a restart with
 * other EDGEPLANE_EDGES labels moves them there, while labels others added stay. Then the mailbox
 * step is asked for each SyncTarget's mailbox at once (the relay or the cron would get there too,
 * later; a repeated key is harmless). Edges no longer configured are left alone: nothing here deletes.
 */
import { EDGE_API_VERSION } from '../../lib/apis/edge-v1alpha1.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { mailboxOf } from '../../lib/reconcile/keys.ts'
import { hookKeyResults } from '../../lib/relay/hook-answer.ts'
import { EDGE_INVENTORY, type EdgeSpec, edgeLabels } from './edges-config.ts'

/** A request to the hub with the admin token (infra/local/hub-request.ts underneath). */
export type HubCall = (
  path: string,
  init?: { method?: string; headers?: Record<string, string>; body?: string }
) => Promise<Response>

export type RegisteredEdge = EdgeSpec & { syncTargetUid: string; mailbox: string }

const MANAGER = 'edgeplane-local'
const EDGE_API = `/apis/${EDGE_API_VERSION}`
const [EDGE_GROUP = '', EDGE_VERSION = ''] = EDGE_API_VERSION.split('/')

async function expectOk(res: Response, what: string): Promise<unknown> {
  const text = await res.text()
  if (res.ok) return text ? JSON.parse(text) : undefined
  let message = text.slice(0, 300)
  try {
    message = (JSON.parse(text) as { message?: string }).message ?? message
  } catch {
    // not a Status
  }
  throw new Error(`${what}: HTTP ${res.status}: ${message}`)
}

async function apply(call: HubCall, path: string, body: KubeObject): Promise<KubeObject> {
  const res = await call(`${path}?fieldManager=${MANAGER}&force=true`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/apply-patch+yaml', accept: 'application/json' },
    body: JSON.stringify(body),
  })
  return (await expectOk(res, `apply ${path}`)) as KubeObject
}

async function ensureInventorySpace(call: HubCall): Promise<void> {
  const name = EDGE_INVENTORY.split(':').at(-1) ?? ''
  const path = `/clusters/root/apis/tenancy.kcp.io/v1alpha1/workspaces`
  const got = await call(`${path}/${name}`, { headers: { accept: 'application/json' } })
  if (got.ok) return
  if (got.status !== 404) await expectOk(got, `get workspace ${EDGE_INVENTORY}`)
  const res = await call(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({
      apiVersion: 'tenancy.kcp.io/v1alpha1',
      kind: 'Workspace',
      metadata: { name },
    }),
  })
  if (res.status !== 409) await expectOk(res, `create workspace ${EDGE_INVENTORY}`)
}

export function syncTargetFor(e: EdgeSpec): KubeObject {
  return {
    apiVersion: EDGE_API_VERSION,
    kind: 'SyncTarget',
    metadata: { name: e.name, labels: { ...edgeLabels(e), id: e.name } },
  }
}

export function locationFor(e: EdgeSpec): KubeObject {
  return {
    apiVersion: EDGE_API_VERSION,
    kind: 'Location',
    metadata: { name: e.name, labels: edgeLabels(e) },
    spec: {
      resource: { group: EDGE_GROUP, version: EDGE_VERSION, resource: 'synctargets' },
      instanceSelector: { matchLabels: { id: e.name } },
    },
  }
}

/** Registers every edge; resolves with each SyncTarget's uid and mailbox name. */
export async function registerEdges(call: HubCall, edges: EdgeSpec[]): Promise<RegisteredEdge[]> {
  if (edges.length === 0) return []
  await ensureInventorySpace(call)
  const base = `/clusters/${EDGE_INVENTORY}${EDGE_API}`
  const registered = await Promise.all(
    edges.map(async (e): Promise<RegisteredEdge> => {
      const st = await apply(call, `${base}/synctargets/${e.name}`, syncTargetFor(e))
      await apply(call, `${base}/locations/${e.name}`, locationFor(e))
      const mailbox = mailboxOf(st)
      if (!mailbox || !st.metadata?.uid) throw new Error(`SyncTarget ${e.name} has no uid or space`)
      return { ...e, syncTargetUid: st.metadata.uid, mailbox }
    })
  )
  // Keys the hook deferred (its invocation's budget ran short) are sent again.
  let keys = registered.map((r) => r.mailbox)
  while (keys.length > 0) {
    const res = await call('/hooks/mailbox', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ keys }),
    })
    const answer = hookKeyResults(await expectOk(res, 'POST /hooks/mailbox')) ?? []
    keys = answer.filter((r) => r.deferred).map((r) => r.key)
  }
  return registered
}
