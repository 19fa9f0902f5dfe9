/**
 * The step names and key shape the relay's key mapping shares (event-keys.ts and its helpers):
 * the mailbox, where and translate steps, a step's key, a resource, and the translate keys of
 * some mailboxes (each once, sorted).
 */
export const MAILBOX_STEP = 'mailbox'
export const WHERE_STEP = 'where'
export const TRANSLATE_STEP = 'translate'

export type StepKey = { step: string; key: string }
export type ResourceRef = { group: string; resource: string }

export const translate = (mailboxes: Iterable<string>): StepKey[] =>
  [...new Set(mailboxes)].sort().map((key) => ({ step: TRANSLATE_STEP, key }))
