/**
 * The wire contract of the bootstrap endpoint, `POST /edge/v1/bootstrap` (admin only), shared by
 * the handler (functions/edge-api/bootstrap.ts) and the CLI (infra/edge-bootstrap/). The request
 * names a SyncTarget by inventory space and name, plus optional overrides for the manifests; the
 * answer carries the mailbox name, the freshly issued edge token and the manifests to apply to the
 * edge cluster as one multi-document YAML stream. A SyncTarget that already has a credential gets
 * a new one (every earlier one revoked) only when the request says `rotate: true`; otherwise the
 * answer is 409 Conflict naming the field `rotate` (lib/edge/credentials.ts, credentialExists).
 */
import { z } from 'zod'
import { isDnsLabel, isDnsSubdomain } from '../kube/names.ts'

export const BootstrapRequestSchema = z.strictObject({
  /** The inventory space (path such as `root:imw-1`, or id) holding the SyncTarget. */
  inventory: z.string().min(1).max(1000),
  syncTarget: z
    .string()
    .min(1)
    .max(253, { abort: true })
    .refine(isDnsSubdomain, 'must be a DNS subdomain name'),
  /** The center's base URL as the edge reaches it; default: the URL this request was sent to. */
  centerUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  /** PEM of a private CA the center's certificate chains to. */
  caPem: z.string().max(65_536).includes('-----BEGIN CERTIFICATE-----').optional(),
  /** The agent's image; default EDGE_AGENT_IMAGE (manifests-image.ts). */
  image: z
    .string()
    .min(1)
    .max(512)
    .regex(/^[^\s]+$/, 'must be an image reference without spaces')
    .optional(),
  namespace: z
    .string()
    .max(63, { abort: true })
    .refine(isDnsLabel, 'must be a DNS label')
    .optional(),
  pollIntervalSeconds: z.number().int().min(1).max(3600).optional(),
  /** Replace the SyncTarget's current credential, revoking it (default false: 409 if it has one). */
  rotate: z.boolean().optional(),
})
export type BootstrapRequest = z.infer<typeof BootstrapRequestSchema>

export const BootstrapResponseSchema = z.object({
  kind: z.literal('EdgeBootstrap'),
  mailbox: z.string().min(1),
  syncTarget: z.string().min(1),
  namespace: z.string().min(1),
  centerUrl: z.string().min(1),
  /** The agent image the manifests run (absent from hubs older than this field). */
  image: z.string().min(1).optional(),
  /** The edge token: also inside `manifests` (in the Secret). */
  token: z.string().min(1),
  issuedAt: z.string(),
  manifests: z.string().min(1),
})
export type BootstrapResponse = z.infer<typeof BootstrapResponseSchema>
