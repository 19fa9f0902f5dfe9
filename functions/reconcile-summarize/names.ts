/**
 * Summarize-step names: keys are the where step's (`<workload-space-id>/<edgeplacement-name>`,
 * one EdgePlacement; the format lives in lib/reconcile/keys.ts, shared with the watch relay), the
 * step's name (the webhook path `/hooks/summarize` and the resync cursor), and the deterministic
 * names of the Events it records about edge problems. The annotation the step keeps on each
 * selected workload object is the placement model's (lib/placement/annotations.ts).
 */
export { parseWhereKey, whereKey, whereKeyOf } from '../../lib/reconcile/keys.ts'

export const SUMMARIZE_STEP = 'summarize'

/** 64-bit FNV-1a as 16 hex digits: a short, stable, non-cryptographic digest for names. */
function fnv1a64(text: string): string {
  let h = 0xcbf29ce484222325n
  for (let i = 0; i < text.length; i++) {
    h ^= BigInt(text.charCodeAt(i))
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn
  }
  return h.toString(16).padStart(16, '0')
}

/**
 * The name of the Event about an edge problem: `<object name>.<digest>` (kube's recorder names
 * Events `<object>.<hex>` too, so they list by object; the object's name made a DNS subdomain),
 * the digest over the placement's uid, the object (its uid included: a re-created object starts
 * its own Event) and the reason, so a run finds the Event an earlier run recorded instead of
 * adding one.
 */
export function problemEventName(
  placementUid: string,
  e: {
    reason: string
    involved: { apiVersion: string; kind: string; name: string; namespace?: string; uid?: string }
  }
): string {
  const o = e.involved
  const parts = [
    placementUid,
    e.reason,
    o.apiVersion,
    o.kind,
    o.namespace ?? '',
    o.name,
    o.uid ?? '',
  ]
  // An Event's name is a DNS-1123 subdomain; some objects' are not (an RBAC `system:x`).
  const prefix = o.name
    .toLowerCase()
    .replace(/[^a-z0-9.-]/g, '-')
    .slice(0, 200)
    .split('.')
    .map((label) => label.replace(/^-+|-+$/g, ''))
    .filter((label) => label !== '')
    .join('.')
  return `${prefix || 'object'}.${fnv1a64(parts.join('\u0000'))}`
}

/** The component that records the step's Events (`source.component`, `reportingComponent`). */
export const EVENT_COMPONENT = 'edgeplane-summarize'
