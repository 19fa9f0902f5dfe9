/**
 * Answers the self-review APIs from the caller's token, so `kubectl auth whoami` and `kubectl auth
 * can-i` work: SelfSubjectReview returns the principal's user info; SelfSubjectAccessReview allows
 * a request when the token reaches the space it was made in (admins reach everything; tokens carry
 * no finer rules, so within a reachable space every verb on every resource is allowed, except that
 * edge credentials may only touch their own mailbox); SelfSubjectRulesReview lists that as rules.
 * Nothing is stored.
 */
import { badRequest } from '../errors.ts'
import type { KubeObject } from '../kube/types.ts'
import { maySee, type Principal } from './tokens.ts'

type Review = Record<string, unknown>

function userInfo(p: Principal) {
  return {
    username: p.name,
    groups: [
      ...(p.groups ?? []),
      p.kind === 'admin' ? 'system:masters' : `edgeplane:${p.kind}`,
      'system:authenticated',
    ].filter((g, i, a) => a.indexOf(g) === i),
    extra: { 'edgeplane.io/scopes': p.kind === 'admin' ? ['*'] : p.spaces },
  }
}

function allRules(allowed: boolean) {
  if (!allowed) return { resourceRules: [], nonResourceRules: [], incomplete: false }
  return {
    resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
    nonResourceRules: [
      {
        verbs: ['get'],
        nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/openapi/*', '/version'],
      },
    ],
    incomplete: false,
  }
}

/** Builds the answer to a review `body` posted by `p` in the space at `spacePath`. */
export function answerReview(
  kind: string,
  body: unknown,
  p: Principal,
  spacePath: string
): KubeObject {
  if (!body || typeof body !== 'object') throw badRequest('the review must be a JSON object')
  const review = body as Review
  const reachable = maySee(p, spacePath)
  const base = {
    apiVersion: String(review.apiVersion ?? ''),
    kind,
    metadata: { creationTimestamp: null },
  }
  if (kind === 'SelfSubjectReview')
    return { ...base, status: { userInfo: userInfo(p) } } as unknown as KubeObject
  if (kind === 'SelfSubjectRulesReview')
    return {
      ...base,
      spec: review.spec ?? {},
      status: allRules(reachable),
    } as unknown as KubeObject
  const spec = (review.spec ?? {}) as Review
  if (!spec.resourceAttributes && !spec.nonResourceAttributes)
    throw badRequest('spec.resourceAttributes or spec.nonResourceAttributes is required')
  const reason = reachable
    ? `${p.kind} token "${p.name}" reaches workspace ${spacePath}`
    : `${p.kind} token "${p.name}" does not reach workspace ${spacePath}`
  return { ...base, spec, status: { allowed: reachable, reason } } as unknown as KubeObject
}
