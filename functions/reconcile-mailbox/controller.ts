/**
 * The mailbox controller: keys are mailbox names. `listKeys` pages through the union of what should
 * exist (one mailbox per SyncTarget in any space: the SyncTarget index, lib/hub/uid-index.ts
 * `wantedMailboxes`) and what does exist (the mailbox spaces under root:espw, lib/hub/spaces.ts
 * `childSpaces`), in name order after the cursor, so the resync both creates missing mailboxes
 * and removes orphaned ones. A page reads at most `limit` entries of each, whatever the number of
 * edges: both are listed in name order, so the first `limit` names of their union after the
 * cursor are exactly the page. Events map to keys in the relay (lib/relay/event-keys.ts: a
 * SyncTarget wakes its mailbox, a mailbox Workspace itself). Keys of one batch run `CONCURRENCY`
 * at a time (each touches only its own SyncTarget, Workspace and space records); the batch's
 * subrequest budget still paces them (lib/budget/pacer.ts). One at a time, a registration of
 * 1,000 edges through the relay took a mailbox run of about 110 ms after another. A batch reads
 * ahead (`session`): its keys' uid-index entries in one request, then their SyncTargets and
 * Workspaces in one read each (read-ahead.ts); a failed read ahead only sends each run back to its
 * own reads. The batch reads the tenancy policy once (inventory.ts: which spaces make edges).
 */
import { ESPW } from '../../lib/apis/gvr.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import { childSpaces } from '../../lib/hub/spaces.ts'
import { indexedNames, wantedMailboxes } from '../../lib/hub/uid-index.ts'
import { type Logger, silentLogger } from '../../lib/log.ts'
import type { Controller } from '../../lib/reconcile/types.ts'
import type { KvStore } from '../../lib/store/types.ts'
import { batchTenancy } from './inventory.ts'
import { isMailboxName } from './names.ts'
import { readAhead } from './read-ahead.ts'
import { MAILBOX_STEP, reconcileMailbox } from './reconcile.ts'

export { MAILBOX_STEP }

/** Mailbox runs of one batch in flight at once. */
export const CONCURRENCY = 16

/** `log` gets one warning per invalid stored SyncTarget the step skips (lib/apis/decode.ts). */
export function mailboxController(
  client: HubClient,
  kv: KvStore,
  log: Logger = silentLogger
): Controller {
  return {
    name: MAILBOX_STEP,
    concurrency: CONCURRENCY,
    reconcile: (key) => reconcileMailbox({ client, kv, log }, key),
    session(keys) {
      // A failed read ahead is no failure of the batch: each run then reads for itself.
      const mailboxes = keys.filter(isMailboxName)
      const names = indexedNames(kv, mailboxes).catch(() => undefined)
      const ahead = readAhead(client, mailboxes, names).catch(() => undefined)
      const tenancy = batchTenancy(client)
      return {
        async reconcile(key) {
          const [known, read] = await Promise.all([names, ahead])
          const more = { ...(known ? { names: known } : {}), ...(read ? { ahead: read } : {}) }
          return reconcileMailbox({ client, kv, log, tenancy, ...more }, key)
        },
      }
    },
    async listKeys(cursor, limit) {
      const [wanted, existing] = await Promise.all([
        wantedMailboxes(kv, { after: cursor, limit }),
        childSpaces(kv, ESPW, { after: cursor, limit }),
      ])
      const names = existing.spaces.map((s) => s.path.slice(ESPW.length + 1))
      const union = [...new Set([...wanted, ...names])].filter(isMailboxName).sort()
      // A source that filled its page may hold more; names past the shorter one wait for a page
      // of their own, as the next page starts after the last name handed out.
      const bounds = [
        ...(wanted.length >= limit ? [wanted[wanted.length - 1] as string] : []),
        ...(existing.more && existing.last !== undefined ? [existing.last] : []),
      ]
      const bound = bounds.length > 0 ? bounds.sort()[0] : undefined
      const keys = union.filter((k) => bound === undefined || k <= bound).slice(0, limit)
      const last = keys[keys.length - 1]
      const more = bound !== undefined || union.length > keys.length
      if (!more) return { keys }
      return { keys, next: last ?? bound }
    },
  }
}
