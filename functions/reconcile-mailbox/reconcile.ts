/**
 * The mailbox step for one key (a mailbox name): make the world match "a Workspace of that name
 * exists in root:espw exactly while its SyncTarget exists". It re-reads (or takes what its batch
 * read ahead of, read-ahead.ts) the SyncTarget (by uid, in
 * its inventory space, through the hub's uid index: lib/hub/uid-index.ts) and the Workspace, then creates, annotates, or deletes the Workspace — with
 * uid preconditions — and reports what it did. A mailbox deleted while its SyncTarget lives is
 * created again once its termination completes. A failed read throws: nothing is deleted on doubt;
 * only a SyncTarget that is truly absent (or whose whole space is gone) removes its mailbox, and,
 * once the mailbox is gone too, the SyncTarget's uid-index entry and edge lease. The
 * SyncTarget is decoded once by its schema (lib/apis/decode.ts): an invalid stored one is reported
 * and its mailbox left as it is, neither created nor deleted. Only a SyncTarget of an inventory
 * space has a mailbox (inventory.ts): one anywhere else is inert, says so in its status, and a
 * mailbox it had (made before its space stopped being one, or by a release without tenancy) is
 * deleted; its index entry stays, so it gets its mailbox once an administrator makes the space an
 * inventory space.
 */
import { decodeObject, reportInvalid } from '../../lib/apis/decode.ts'
import { SyncTargetSchema } from '../../lib/apis/edge-inventory.ts'
import { ESPW, SYNC_TARGET_NAME_ANNOTATION, WORKSPACES } from '../../lib/apis/gvr.ts'
import { dropLease } from '../../lib/edge/lease.ts'
import { isApiError } from '../../lib/errors.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import { forgetUid, liveWithUid, syncTargetByUid } from '../../lib/hub/uid-index.ts'
import { timestamp } from '../../lib/kube/time.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import type { Logger } from '../../lib/log.ts'
import { type ReconcileResult, TerminalError } from '../../lib/reconcile/types.ts'
import type { KvStore } from '../../lib/store/types.ts'
import type { TenancyPolicy } from '../../lib/tenancy/policy.ts'
import { applyInventoryCondition, batchTenancy, inventoryPath } from './inventory.ts'
import { parseMailboxName } from './names.ts'
import type { MailboxAhead } from './read-ahead.ts'

async function findSyncTarget(
  deps: MailboxDeps,
  key: string,
  at: { spaceId: string; uid: string }
): Promise<KubeObject | undefined> {
  const ahead = deps.ahead?.syncTarget(key)
  if (ahead !== undefined) return liveWithUid(ahead ?? undefined, at.uid)
  try {
    return await syncTargetByUid(deps.client, deps.kv, { ...at, known: deps.names?.get(key) })
  } catch (e) {
    // The inventory space itself is gone, and every SyncTarget with it.
    if (isApiError(e) && e.code === 404) return undefined
    throw e
  }
}

export const MAILBOX_STEP = 'mailbox'

/**
 * `names`: SyncTarget names read ahead from the uid index for a batch (indexedNames); `ahead`:
 * the batch's SyncTargets and Workspaces (read-ahead.ts); `tenancy`: the batch's tenancy policy
 * (inventory.ts), read by the run itself without one; `now`: the clock of condition times.
 */
export type MailboxDeps = {
  client: HubClient
  kv: KvStore
  log: Logger
  names?: ReadonlyMap<string, string>
  ahead?: MailboxAhead
  tenancy?: () => Promise<TenancyPolicy>
  now?: () => Date
}

async function findWorkspace(deps: MailboxDeps, key: string): Promise<KubeObject | undefined> {
  const ahead = deps.ahead?.workspace(key)
  if (ahead !== undefined) return ahead ?? undefined
  return deps.client.get(ESPW, WORKSPACES, key)
}

export async function reconcileMailbox(deps: MailboxDeps, key: string): Promise<ReconcileResult> {
  const { client } = deps
  const parsed = parseMailboxName(key)
  if (!parsed) throw new TerminalError(`"${key}" is not a mailbox name (<space-id>-mb-<uid>)`)
  const stored = await findSyncTarget(deps, key, {
    spaceId: parsed.inventorySpaceId,
    uid: parsed.syncTargetUid,
  })
  const decoded = stored && decodeObject(SyncTargetSchema, stored)
  if (decoded && !decoded.ok) {
    reportInvalid(deps.log, MAILBOX_STEP, decoded.problem)
    return { outcome: 'invalid SyncTarget: skipped' }
  }
  const st = decoded?.value
  const ws = await findWorkspace(deps, key)
  if (!st) {
    if (!ws) {
      await forgetUid(deps.kv, parsed.inventorySpaceId, parsed.syncTargetUid)
      await dropLease(deps.kv, parsed.inventorySpaceId, parsed.syncTargetUid)
      return { outcome: 'absent' }
    }
    if (ws.metadata.deletionTimestamp) return { outcome: 'absent' }
    await client.delete(ESPW, WORKSPACES, key, { uid: ws.metadata.uid ?? '' })
    return { outcome: 'deleted' }
  }
  const space = await inventoryPath(
    client,
    deps.tenancy ?? batchTenancy(client),
    parsed.inventorySpaceId
  )
  if (!space) return { outcome: 'absent' } // the space went since the SyncTarget was read
  const now = timestamp(deps.now?.() ?? new Date())
  await applyInventoryCondition(client, { spaceId: parsed.inventorySpaceId, ...space, now }, st)
  if (!space.inventory) {
    if (!ws || ws.metadata.deletionTimestamp) return { outcome: 'not an inventory space' }
    await client.delete(ESPW, WORKSPACES, key, { uid: ws.metadata.uid ?? '' })
    return { outcome: 'deleted: not an inventory space' }
  }
  const stName = st.metadata.name ?? ''
  if (!ws) {
    await client.create(ESPW, WORKSPACES, {
      apiVersion: 'tenancy.kcp.io/v1alpha1',
      kind: 'Workspace',
      metadata: { name: key, annotations: { [SYNC_TARGET_NAME_ANNOTATION]: stName } },
    })
    return { outcome: 'created' }
  }
  if (ws.metadata.deletionTimestamp)
    return { outcome: 'waiting for termination', requeueAfterMs: 2000 }
  if (ws.metadata.annotations?.[SYNC_TARGET_NAME_ANNOTATION] === stName)
    return { outcome: 'unchanged' }
  const annotations = { ...(ws.metadata.annotations ?? {}), [SYNC_TARGET_NAME_ANNOTATION]: stName }
  await client.update(ESPW, WORKSPACES, { ...ws, metadata: { ...ws.metadata, annotations } })
  return { outcome: 'annotated' }
}
