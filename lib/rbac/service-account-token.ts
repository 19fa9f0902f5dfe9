/**
 * kube's TokenRequest (`POST .../serviceaccounts/<name>/token`, `kubectl create token`) on a hub
 * that authorizes by RBAC (a simulated edge): a fresh bearer token for an existing ServiceAccount,
 * which authenticates as `system:serviceaccount:<ns>:<name>` in the service-account groups, so a
 * process can run as the account the way a pod's mounted token does (npm start's agents run so,
 * infra/local/local-edges.ts). `spec.expirationSeconds` is kube's: at least 600, default 3600;
 * here at most a year. The token is stored hashed like every other (lib/auth/tokens.ts) and
 * expires then; deleting the ServiceAccount does not revoke it (kube's bound tokens would be).
 */
import { z } from 'zod'
import { generateToken, registerToken } from '../auth/tokens.ts'
import { badRequest, invalid, notFound } from '../errors.ts'
import type { HubDeps } from '../hub/deps.ts'
import { ROOT } from '../hub/spaces.ts'
import { timestamp } from '../kube/time.ts'
import type { KubeObject } from '../kube/types.ts'
import { serviceAccountGroups, serviceAccountUser } from './service-accounts.ts'

export const DEFAULT_TOKEN_SECONDS = 3600
export const MIN_TOKEN_SECONDS = 600
export const MAX_TOKEN_SECONDS = 365 * 24 * 3600

const TokenRequestSchema = z.looseObject({
  spec: z
    .looseObject({
      audiences: z.array(z.string()).nullish(),
      expirationSeconds: z.number().int().nullish(),
    })
    .nullish(),
})

export async function issueServiceAccountToken(
  deps: HubDeps,
  account: { namespace: string; name: string },
  body: unknown
): Promise<KubeObject> {
  const parsed = TokenRequestSchema.safeParse(body ?? {})
  if (!parsed.success) throw badRequest('the body must be a TokenRequest')
  const spec = parsed.data.spec ?? {}
  const seconds = spec.expirationSeconds ?? DEFAULT_TOKEN_SECONDS
  if (seconds < MIN_TOKEN_SECONDS || seconds > MAX_TOKEN_SECONDS)
    throw invalid('tokenrequests', { group: 'authentication.k8s.io', name: account.name }, [
      {
        reason: 'FieldValueInvalid',
        field: 'spec.expirationSeconds',
        message: `must be between ${MIN_TOKEN_SECONDS} and ${MAX_TOKEN_SECONDS} seconds`,
      },
    ])
  const key = { cluster: ROOT.id, group: '', resource: 'serviceaccounts', ...account }
  if (!(await deps.objects.get(key))) throw notFound('serviceaccounts', { name: account.name })
  const now = deps.now()
  const expires = new Date(now.getTime() + seconds * 1000)
  const token = generateToken()
  await registerToken(deps.kv, token, {
    name: serviceAccountUser(account.namespace, account.name),
    kind: 'user',
    spaces: [ROOT.path],
    groups: serviceAccountGroups(account.namespace),
    expiresAt: expires.toISOString(),
  })
  return {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenRequest',
    metadata: { ...account, creationTimestamp: timestamp(now) },
    spec: { audiences: spec.audiences ?? [], expirationSeconds: seconds },
    status: { token, expirationTimestamp: timestamp(expires) },
  } as unknown as KubeObject
}
