/**
 * The self reviews on a hub that authorizes by RBAC, answered from the same authorizer as every
 * request (so `kubectl auth can-i`, with `--as` too, tells what the cluster would do):
 * SelfSubjectReview returns the user (after impersonation); SelfSubjectAccessReview evaluates its
 * resource or non-resource attributes for that user; SelfSubjectRulesReview lists the rules the
 * user holds in `spec.namespace` (cluster-wide ones included). Nothing is stored.
 */
import { z } from 'zod'
import { badRequest } from '../errors.ts'
import type { KubeObject } from '../kube/types.ts'
import { authorize, rulesFor } from './authorizer.ts'
import type { Attributes, RbacPolicy, UserInfo } from './types.ts'

const ReviewSchema = z.looseObject({
  apiVersion: z.string().optional(),
  spec: z
    .looseObject({
      namespace: z.string().optional(),
      resourceAttributes: z
        .looseObject({
          namespace: z.string().optional(),
          verb: z.string().optional(),
          group: z.string().optional(),
          version: z.string().optional(),
          resource: z.string().optional(),
          subresource: z.string().optional(),
          name: z.string().optional(),
        })
        .optional(),
      nonResourceAttributes: z
        .looseObject({ path: z.string().optional(), verb: z.string().optional() })
        .optional(),
    })
    .optional(),
})

type Spec = NonNullable<z.infer<typeof ReviewSchema>['spec']>

function attributesOf(spec: Spec): Attributes {
  const r = spec.resourceAttributes
  if (r)
    return {
      resourceRequest: true,
      verb: r.verb ?? '',
      apiGroup: r.group ?? '',
      resource: r.resource ?? '',
      ...(r.subresource ? { subresource: r.subresource } : {}),
      ...(r.namespace ? { namespace: r.namespace } : {}),
      ...(r.name ? { name: r.name } : {}),
    }
  const n = spec.nonResourceAttributes
  if (n) return { resourceRequest: false, verb: n.verb ?? '', path: n.path ?? '' }
  throw badRequest('spec.resourceAttributes or spec.nonResourceAttributes is required')
}

function rulesStatus(policy: RbacPolicy, user: UserInfo, namespace: string) {
  const rules = rulesFor(policy, user, namespace)
  return {
    resourceRules: rules
      .filter((r) => (r.nonResourceURLs ?? []).length === 0)
      .map(({ nonResourceURLs: _n, ...r }) => r),
    nonResourceRules: rules
      .filter((r) => (r.nonResourceURLs ?? []).length > 0)
      .map((r) => ({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs })),
    incomplete: false,
  }
}

export function answerRbacReview(
  kind: string,
  body: unknown,
  policy: RbacPolicy,
  user: UserInfo
): KubeObject {
  const parsed = ReviewSchema.safeParse(body)
  if (!parsed.success) throw badRequest('the review must be a JSON object')
  const review = parsed.data
  const base = { apiVersion: review.apiVersion ?? '', kind, metadata: { creationTimestamp: null } }
  const spec = review.spec ?? {}
  if (kind === 'SelfSubjectReview')
    return {
      ...base,
      status: { userInfo: { username: user.name, groups: user.groups } },
    } as unknown as KubeObject
  if (kind === 'SelfSubjectRulesReview')
    return {
      ...base,
      spec,
      status: rulesStatus(policy, user, spec.namespace ?? ''),
    } as unknown as KubeObject
  const d = authorize(policy, user, attributesOf(spec))
  return {
    ...base,
    spec,
    status: { allowed: d.allowed, ...(d.reason ? { reason: d.reason } : {}) },
  } as unknown as KubeObject
}
