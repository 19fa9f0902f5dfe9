/**
 * The relay's keys for a mailbox Workspace of root:espw (event-keys.ts hands it over): its own
 * translate key, its mailbox key when that step's input moved, and when it came or went (or
 * started terminating) the where keys of the placements whose slices name it. Undefined for any
 * other Workspace.
 */
import { CLUSTER_ANNOTATION, type KubeObject } from '../kube/types.ts'
import { isMailboxName, whereKey } from '../reconcile/keys.ts'
import { mailboxMoved } from './event-memory.ts'
import type { SliceIndex } from './slice-index.ts'
import { MAILBOX_STEP, type StepKey, translate, WHERE_STEP } from './step-keys.ts'

export type MailboxKeysDeps = {
  espwSpaceId: string
  mailboxes?: Map<string, string>
  index: SliceIndex
}

const spaceOf = (obj: KubeObject) => obj.metadata?.annotations?.[CLUSTER_ANNOTATION] || undefined

/**
 * A mailbox Workspace's keys: its own translate key, its mailbox key when that step's input moved,
 * and when it came or went (or started terminating) the where keys of the placements whose slices
 * name it: their status lists a Location none of whose SyncTargets has a mailbox (NoMailbox).
 */
export function mailboxKeys(
  type: string,
  obj: KubeObject,
  deps: MailboxKeysDeps
): StepKey[] | undefined {
  const name = obj.metadata.name
  if (spaceOf(obj) !== deps.espwSpaceId || !name || !isMailboxName(name)) return undefined
  const moved = mailboxMoved(deps.mailboxes, type, obj)
  const own = moved ? [{ step: MAILBOX_STEP, key: name }] : []
  const wheres =
    type === 'ADDED' || moved
      ? [...new Set(deps.index.slicesNaming(name).map((s) => whereKey(s.space, s.placement)))]
          .sort()
          .map((key) => ({ step: WHERE_STEP, key }))
      : []
  return [...own, ...wheres, ...translate([name])]
}
