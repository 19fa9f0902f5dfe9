/**
 * The agent's Secret at a simulated edge (`edgeplane-system/edgeplane-agent`, made by the
 * bootstrap manifests), read back as a pod mounting it would see it, and whether `npm start` may
 * keep it: only when it names this edge's mailbox, this stack's center URL and certificate, and
 * holds a token. A Secret someone applied from another bootstrap — say a README example with
 * `--center-url https://center.example:8787` — names another center and would point the agent
 * there; one from an earlier data folder carries another certificate. `staleReason` says why a
 * Secret cannot be kept (edge-join.ts then joins again and logs it); whether the center still
 * accepts the token is asked separately.
 */
import type { KubeObject } from '../../lib/kube/types.ts'

export type SecretValues = {
  center: string | undefined
  mailbox: string | undefined
  token: string | undefined
  ca: string | undefined
}

const decode = (v: unknown) =>
  typeof v === 'string' ? Buffer.from(v, 'base64').toString('utf8') : undefined

/** The Secret's values, decoded (each undefined when absent). */
export function secretValues(secret: KubeObject | undefined): SecretValues {
  const data = (secret?.data ?? {}) as Record<string, unknown>
  return {
    center: decode(data.center),
    mailbox: decode(data.mailbox),
    token: decode(data.token),
    ca: decode(data['ca.crt']),
  }
}

const base = (url: string) => url.replace(/\/+$/, '')

/** What this stack expects the Secret to say. */
export type ExpectedSecret = { mailbox: string; centerUrl: string; caPem: string }

/** True when the edge has an agent Secret at all (a first join finds none). */
export const hasSecret = (v: SecretValues) =>
  v.mailbox !== undefined || v.token !== undefined || v.center !== undefined

/** Why the Secret cannot be kept, or undefined when it may be (its token still to be checked). */
export function staleReason(v: SecretValues, want: ExpectedSecret): string | undefined {
  if (!hasSecret(v)) return 'the edge has no agent Secret yet'
  if (v.mailbox !== want.mailbox)
    return `its Secret names mailbox ${v.mailbox ?? '(none)'}, not ${want.mailbox} (the SyncTarget was made again)`
  if (v.center === undefined || base(v.center) !== base(want.centerUrl))
    return `its Secret names another center (${v.center ?? 'none'}, not ${base(want.centerUrl)})`
  if (!v.token) return 'its Secret holds no token'
  if (v.ca !== undefined && v.ca.trim() !== want.caPem.trim())
    return "its Secret holds another certificate than this stack's"
  return undefined
}
