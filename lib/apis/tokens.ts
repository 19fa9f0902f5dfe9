/**
 * The `auth.edgeplane.io/v1alpha1` Token kind: a bearer token an admin issues for a person, a
 * tenant or a tool. It is served in the root space only (cluster-scoped there), so `kubectl get
 * tokens` works against root. Issuing answers with the secret once in `status.token`; the stored
 * object keeps only the SHA-256 of it (`status.tokenHash`), which is also the key of the principal
 * record that authenticates requests (lib/auth/tokens.ts). Tokens are immutable: no update, patch
 * or status subresource, so nobody can point a stored Token at another token's hash; deleting one
 * revokes it (lib/hub/tokens.ts). The schemas here give the kind its OpenAPI v3 schema and the
 * hub's unknown-field checks; the value rules (spaces, names, expiry bounds) are in
 * lib/auth/token-spec.ts.
 */
import { z } from 'zod'
import { builtinResource, type ResourceInfo } from '../kube/resource-info.ts'
import { kindObject } from './kind-object.ts'

export const TOKEN_GROUP = 'auth.edgeplane.io'
export const TOKEN_VERSION = 'v1alpha1'
export const TOKEN_API_VERSION = `${TOKEN_GROUP}/${TOKEN_VERSION}`
export const TOKENS_RESOURCE = 'tokens'

/** Who a token stands for: a user reaching its spaces, or an admin reaching everything. */
export const TOKEN_TYPES = ['user', 'admin'] as const

/** Lifetime bounds, in seconds: 10 minutes to 1 year; 30 days unless the spec says otherwise. */
export const MIN_EXPIRATION_SECONDS = 600
export const MAX_EXPIRATION_SECONDS = 365 * 24 * 3600
export const DEFAULT_EXPIRATION_SECONDS = 30 * 24 * 3600

export const TOKEN_INFO: ResourceInfo = builtinResource({
  group: TOKEN_GROUP,
  versions: [TOKEN_VERSION],
  resource: TOKENS_RESOURCE,
  kind: 'Token',
  namespaced: false,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'watch'],
})

export function isTokenResource(info: Pick<ResourceInfo, 'group' | 'resource' | 'source'>) {
  return (
    info.source === 'builtin' && info.group === TOKEN_GROUP && info.resource === TOKENS_RESOURCE
  )
}

export const TokenSpecSchema = z
  .object({
    user: z
      .string()
      .optional()
      .describe('The user name requests authenticate as; default: the Token name.'),
    type: z.enum(TOKEN_TYPES).optional().describe('user (default) or admin.'),
    spaces: z
      .array(z.string())
      .optional()
      .describe('Space paths (root:team-a) or subtrees (root:team-a:*) a user token reaches.'),
    groups: z
      .array(z.string())
      .optional()
      .describe(
        'Groups of the user, as kubectl auth whoami shows them (edgeplane:metrics-readers may read /metrics).'
      ),
    expirationSeconds: z
      .number()
      .int()
      .optional()
      .describe('Lifetime from issue, 600 to 31536000 seconds; default 2592000 (30 days).'),
  })
  .describe('Who the token stands for and what it reaches; fixed once issued.')
export type TokenSpecInput = z.infer<typeof TokenSpecSchema>

export const TokenStatusSchema = z
  .object({
    tokenHash: z.string().optional().describe('SHA-256 (hex) of the token; set by the hub.'),
    expirationTimestamp: z.string().optional().describe('When the token stops working.'),
    token: z.string().optional().describe('The token itself, in the answer to create only.'),
  })
  .describe('Set by the hub when it issues the token.')

export const TokenSchema = kindObject(
  'Token',
  'A bearer token for a person, tenant or tool: a user token reaches the spaces it lists, an ' +
    'admin token everything. The answer to its create carries the token once; the hub keeps ' +
    'only its hash. Deleting the Token revokes it. In root, admin only.',
  {
    spec: TokenSpecSchema.optional(),
    status: TokenStatusSchema.optional(),
  }
)

export const TOKEN_SCHEMAS = { Token: TokenSchema }

/** A stored Token's spec once defaults are filled in (lib/auth/token-spec.ts). */
export type TokenSpec = {
  user: string
  type: (typeof TOKEN_TYPES)[number]
  spaces: string[]
  groups: string[]
  expirationSeconds: number
}
