/**
 * Whether one RBAC rule allows a request, as kube's RBAC authorizer matches
 * (plugin/pkg/auth/authorizer/rbac/rbac.go, RuleAllows): `*` in verbs, apiGroups and resources
 * matches anything; a resource entry is `resource` or `resource/subresource`, and `*\/sub` matches
 * that subresource of every resource; an empty resourceNames matches every name; a
 * nonResourceURL matches exactly, or by prefix when it ends in `*`. A rule is either for
 * resources or for non-resource paths: a resource request never matches nonResourceURLs.
 */
import type { Attributes, PolicyRule } from './types.ts'

const has = (list: readonly string[] | undefined, value: string) =>
  (list ?? []).some((v) => v === '*' || v === value)

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return has(rule.verbs, verb)
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return has(rule.apiGroups, group)
}

export function resourceMatches(rule: PolicyRule, resource: string, subresource?: string): boolean {
  const combined = subresource ? `${resource}/${subresource}` : resource
  return (rule.resources ?? []).some(
    (r) => r === '*' || r === combined || (subresource !== undefined && r === `*/${subresource}`)
  )
}

export function resourceNameMatches(rule: PolicyRule, name: string | undefined): boolean {
  const names = rule.resourceNames ?? []
  if (names.length === 0) return true
  return name !== undefined && names.includes(name)
}

export function nonResourceUrlMatches(rule: PolicyRule, path: string): boolean {
  return (rule.nonResourceURLs ?? []).some(
    (u) => u === '*' || u === path || (u.endsWith('*') && path.startsWith(u.slice(0, -1)))
  )
}

export function ruleAllows(rule: PolicyRule, a: Attributes): boolean {
  if (!a.resourceRequest) return verbMatches(rule, a.verb) && nonResourceUrlMatches(rule, a.path)
  return (
    verbMatches(rule, a.verb) &&
    apiGroupMatches(rule, a.apiGroup) &&
    resourceMatches(rule, a.resource, a.subresource) &&
    resourceNameMatches(rule, a.name)
  )
}
