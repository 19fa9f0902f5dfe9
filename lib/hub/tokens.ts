/**
 * Issuing and revoking Tokens (`auth.edgeplane.io/v1alpha1`, root space; lib/apis/tokens.ts).
 * Issue: the body is checked as any create is (metadata rules, unknown fields per fieldValidation,
 * types), then the spec's value rules (lib/auth/token-spec.ts); finalizers and ownerReferences are
 * refused, so nothing but an explicit delete removes a Token. A random token is generated; the
 * object is stored with only its hash and expiry in `status` (unknown spec fields pruned, any
 * client status ignored), then the principal is registered under the hash (kind, user, spaces,
 * groups, `expiresAt`, the Token's name). The answer carries the token once, in `status.token`.
 * Storing first means a failure can only leave a Token whose token nobody holds; if the
 * registration fails, the object is removed again. dryRun stores and registers nothing and returns
 * no token. A user token issued while the hub is single-team answers with a warning saying so
 * (single-team-warning.ts). Revoke: the kind's `beforeDelete` hook deletes the principal record before the object
 * goes (any delete path: one object, a collection); a failed revocation fails the delete, so a
 * listed-as-deleted token never keeps working. The revocation is immediate in this process and
 * reaches other isolates within TOKEN_CACHE_MS (their token cache).
 */
import { TOKEN_GROUP, TOKENS_RESOURCE } from '../apis/tokens.ts'
import { checkTokenSpec } from '../auth/token-spec.ts'
import {
  generateToken,
  hashToken,
  type Principal,
  registerTokenHash,
  revokeTokenHash,
} from '../auth/tokens.ts'
import { badRequest, invalid, type StatusCause } from '../errors.ts'
import { generateObjectName } from '../kube/names.ts'
import { timestamp } from '../kube/time.ts'
import type { KubeObject } from '../kube/types.ts'
import { createObject } from './create.ts'
import type { HubDeps } from './deps.ts'
import type { KindHookRegistry } from './kind-hooks.ts'
import type { WriteOptions, WriteResult } from './options.ts'
import { singleTeamWarnings } from './single-team-warning.ts'
import { objectKey, type Target, targetDetails } from './target.ts'
import { asKubeObject, checkObject, placeInNamespace } from './validation.ts'

const HASH_RE = /^[0-9a-f]{64}$/

/** The token hash a stored Token names, when it is well formed. */
export function tokenHashOf(obj: KubeObject): string | undefined {
  const hash = (obj.status as { tokenHash?: unknown } | undefined)?.tokenHash
  return typeof hash === 'string' && HASH_RE.test(hash) ? hash : undefined
}

function metadataCauses(obj: KubeObject): StatusCause[] {
  const causes: StatusCause[] = []
  const forbid = (field: string) =>
    causes.push({
      reason: 'FieldValueForbidden',
      field: `metadata.${field}`,
      message: 'not allowed on a Token: only an explicit delete revokes it',
    })
  if ((obj.metadata.finalizers ?? []).length > 0) forbid('finalizers')
  if ((obj.metadata.ownerReferences ?? []).length > 0) forbid('ownerReferences')
  return causes
}

/** Creates the Token described by `body` and its principal; the answer holds the token once. */
export async function issueToken(
  deps: HubDeps,
  t: Target,
  body: unknown,
  opts: WriteOptions
): Promise<WriteResult> {
  const given = placeInNamespace(t, asKubeObject(t, body))
  const { status: _clientStatus, ...withoutStatus } = given
  const meta = given.metadata
  const name = meta.name || (meta.generateName ? generateObjectName(String(meta.generateName)) : '')
  if (!name) throw badRequest('name or generateName is required')
  const named: KubeObject = { ...withoutStatus, metadata: { ...meta, name } }
  const { object: draft, warnings } = checkObject(t, named, opts.fieldValidation)
  const checked = checkTokenSpec(draft.spec, name)
  const causes = [...metadataCauses(draft), ...checked.causes]
  if (causes.length > 0 || !checked.spec)
    throw invalid(t.info.resource, targetDetails(t, name), causes)
  const spec = checked.spec
  const token = generateToken()
  const hash = await hashToken(token)
  const expiresAt = timestamp(new Date(deps.now().getTime() + spec.expirationSeconds * 1000))
  const status = { tokenHash: hash, expirationTimestamp: expiresAt }
  const res = await createObject(deps, t, { body: { ...draft, spec, status }, opts })
  if (opts.dryRun) return { ...res, warnings }
  const principal: Principal = {
    name: spec.user,
    kind: spec.type,
    spaces: spec.spaces,
    ...(spec.groups.length > 0 ? { groups: spec.groups } : {}),
    expiresAt,
    token: name,
  }
  try {
    await registerTokenHash(deps.kv, hash, principal)
  } catch (e) {
    await deps.objects.delete(objectKey(t, name)).catch(() => undefined)
    throw e
  }
  deps.log.info('token issued', { token: name, user: spec.user, type: spec.type, expiresAt })
  const tenancy = spec.type === 'user' ? await singleTeamWarnings(deps).catch(() => []) : []
  return {
    ...res,
    object: { ...res.object, status: { ...status, token } },
    warnings: [...warnings, ...tenancy],
  }
}

/** The behaviour of the Token kind in the hub's generic verbs (see the header), in `hooks`. */
export function registerTokenHooks(hooks: KindHookRegistry<HubDeps>): void {
  hooks.register(TOKEN_GROUP, TOKENS_RESOURCE, {
    prepareCreate: (_ctx, obj) => {
      if (!tokenHashOf(obj))
        throw badRequest('Tokens are issued by POST to the tokens collection only')
      return obj
    },
    beforeDelete: async (ctx, obj) => {
      const hash = tokenHashOf(obj)
      if (hash) await revokeTokenHash(ctx.deps.kv, hash)
      ctx.deps.log.info('token revoked', { token: obj.metadata.name ?? '' })
    },
  })
}
