/**
 * Shared setup of the edge API tests: an inventory space with a SyncTarget, its mailbox space made
 * by the mailbox hook, and helpers to issue the mailbox's edge credential and call the edge API.
 */
import { issueEdgeCredential } from '../../../lib/edge/credentials.ts'
import { mailboxOf } from '../../../lib/reconcile/keys.ts'
import type { TestHub } from '../../helpers/hub.ts'

/** Any admin request helper (the test hub's `call`, or a test's own). */
type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>

export async function createInventory(call: Call, name: string): Promise<void> {
  const res = await call('POST', '/clusters/root/apis/tenancy.kcp.io/v1alpha1/workspaces', {
    apiVersion: 'tenancy.kcp.io/v1alpha1',
    kind: 'Workspace',
    metadata: { name },
  })
  if (res.status !== 201) throw new Error(`workspace ${name}: ${res.status}`)
}

/** A SyncTarget in `root:<inventory>`; its mailbox is created unless `mailbox: false`. */
export async function createSyncTarget(
  call: Call,
  inventory: string,
  name: string,
  opts: { mailbox?: boolean } = {}
): Promise<{ mailbox: string; spaceId: string }> {
  const st = await call(
    'POST',
    `/clusters/root:${inventory}/apis/edge.kcp.io/v1alpha1/synctargets`,
    {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'SyncTarget',
      metadata: { name },
    }
  )
  if (st.status !== 201) throw new Error(`synctarget ${name}: ${st.status}`)
  const mailbox = mailboxOf(st.body)
  if (!mailbox) throw new Error('no mailbox name')
  if (opts.mailbox === false) return { mailbox, spaceId: '' }
  const hook = await call('POST', '/hooks/mailbox', { keys: [mailbox] })
  if (hook.body?.results?.[0]?.ok !== true)
    throw new Error(`mailbox hook: ${JSON.stringify(hook.body)}`)
  const ws = await call(
    'GET',
    `/clusters/root:espw/apis/tenancy.kcp.io/v1alpha1/workspaces/${mailbox}`
  )
  return { mailbox, spaceId: ws.body.spec.cluster }
}

export async function edgeToken(hub: Pick<TestHub, 'store'>, mailbox: string): Promise<string> {
  return (await issueEdgeCredential(hub.store.kv, mailbox)).token
}
