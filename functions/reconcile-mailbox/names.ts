/**
 * Mailbox names (`<inventory-space-id>-mb-<synctarget-uid>`); the format lives in
 * lib/reconcile/keys.ts, shared with the watch relay.
 */
export {
  isMailboxName,
  mailboxName,
  mailboxOf,
  parseMailboxName,
} from '../../lib/reconcile/keys.ts'
