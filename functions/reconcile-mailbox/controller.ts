/**
 * The mailbox controller: keys are mailbox names. `listKeys` pages through the union of what should
 * exist (one mailbox per SyncTarget in any space) and what does exist (mailbox Workspaces in
 * root:espw), in name order after the cursor, so the resync both creates missing mailboxes and
 * removes orphaned ones. Events map to keys in the relay (lib/relay/event-keys.ts: a SyncTarget
 * wakes its mailbox, a mailbox Workspace itself).
 */
import { ESPW, SYNC_TARGETS, WORKSPACES } from '../../lib/apis/gvr.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import { type Logger, silentLogger } from '../../lib/log.ts'
import type { Controller } from '../../lib/reconcile/types.ts'
import type { KvStore } from '../../lib/store/types.ts'
import { mailboxOf, parseMailboxName } from './names.ts'
import { MAILBOX_STEP, reconcileMailbox } from './reconcile.ts'

export { MAILBOX_STEP }

/** `log` gets one warning per invalid stored SyncTarget the step skips (lib/apis/decode.ts). */
export function mailboxController(
  client: HubClient,
  kv: KvStore,
  log: Logger = silentLogger
): Controller {
  return {
    name: MAILBOX_STEP,
    reconcile: (key) => reconcileMailbox({ client, kv, log }, key),
    async listKeys(cursor, limit) {
      const wanted = (await client.list('*', SYNC_TARGETS)).map(mailboxOf)
      const existing = (await client.list(ESPW, WORKSPACES)).map((w) => w.metadata.name)
      const all = [...new Set([...wanted, ...existing])]
        .filter((k): k is string => !!k && !!parseMailboxName(k))
        .filter((k) => cursor === undefined || k > cursor)
        .sort()
      const keys = all.slice(0, limit)
      return all.length > limit ? { keys, next: keys[keys.length - 1] } : { keys }
    },
  }
}
