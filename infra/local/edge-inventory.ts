/**
 * Registers the simulated edges in the center as a platform team would with kubectl: the inventory
 * space `root:imw-1` (a Workspace in root, created when missing, and then with the fresh stack's
 * Inventory and PlacementGrant: local-tenancy.ts), and per edge a SyncTarget and a
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
import { failureOf, type Remote } from '../../lib/remote/remote-client.ts'
import { EDGE_INVENTORY, type EdgeSpec, edgeLabels } from './edges-config.ts'
import { createLocalTenancy } from './local-tenancy.ts'

/** The hub, with the admin token (lib/remote/remote-client.ts). */
export type HubCall = Remote

export type RegisteredEdge = EdgeSpec & { syncTargetUid: string; mailbox: string }

const MANAGER = 'edgeplane-local'
const EDGE_API = `/apis/${EDGE_API_VERSION}`
const [EDGE_GROUP = '', EDGE_VERSION = ''] = EDGE_API_VERSION.split('/')

async function apply(call: HubCall, path: string, body: KubeObject): Promise<KubeObject> {
  return (await call.call(path, {
    method: 'PATCH',
    query: { fieldManager: MANAGER, force: 'true' },
    contentType: 'application/apply-patch+yaml',
    accept: 'application/json',
    body,
    what: `apply ${path}`,
  })) as KubeObject
}

async function ensureInventorySpace(call: HubCall): Promise<void> {
  const name = EDGE_INVENTORY.split(':').at(-1) ?? ''
  const path = `/clusters/root/apis/tenancy.kcp.io/v1alpha1/workspaces`
  const got = await call.send(`${path}/${name}`, { accept: 'application/json' })
  if (got.status !== 404 && !got.ok) throw await failureOf(got, `get workspace ${EDGE_INVENTORY}`)
  await got.body?.cancel()
  if (got.ok) return
  const workspace = { apiVersion: 'tenancy.kcp.io/v1alpha1', kind: 'Workspace', metadata: { name } }
  const res = await call.send(path, { method: 'POST', accept: 'application/json', body: workspace })
  if (res.ok || res.status === 409) await res.body?.cancel()
  else throw await failureOf(res, `create workspace ${EDGE_INVENTORY}`)
  if (res.ok) await createLocalTenancy(call, EDGE_INVENTORY)
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
    const res = await call.call('/hooks/mailbox', {
      method: 'POST',
      accept: 'application/json',
      body: { keys },
    })
    const answer = hookKeyResults(res) ?? []
    keys = answer.filter((r) => r.deferred).map((r) => r.key)
  }
  return registered
}
