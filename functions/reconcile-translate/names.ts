/**
 * Translate-step names: keys are mailbox names (the format lives in lib/reconcile/keys.ts, shared
 * with the mailbox step and the relay), and the deterministic names of the Events the step
 * records, so reporting the same problem again finds the Event it made before instead of adding
 * one per run.
 */
export { isMailboxName, parseMailboxName } from '../../lib/reconcile/keys.ts'

/** The step's name: its controller's, and the `step` of its log lines. */
export const TRANSLATE_STEP = 'translate'

/** 32-bit FNV-1a as 8 hex digits: a short, stable, non-cryptographic digest for names. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h.toString(16).padStart(8, '0')
}

/**
 * `<placement>.<digest of reason, object and subject>`: one Event per (placement, object, reason,
 * subject); without a subject the digest is the one of (placement, object, reason).
 */
export function eventName(
  placementName: string,
  p: {
    reason: string
    subject?: string
    object: { apiVersion: string; kind: string; namespace: string; name: string }
  }
): string {
  const o = p.object
  const parts = [p.reason, o.apiVersion, o.kind, o.namespace, o.name]
  if (p.subject !== undefined) parts.push(p.subject)
  const digest = fnv1a(parts.join('\u0000'))
  return `${placementName.slice(0, 240)}.${digest}`
}
