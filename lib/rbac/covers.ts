/**
 * Whether a set of rules covers another, as kube's escalation check decides
 * (pkg/registry/rbac/validation, Covers): each requested rule is broken into simple rules (one
 * verb, group, resource and name, or one verb and non-resource URL), and each must be covered by
 * one held rule: its verbs, groups and resources hold the simple rule's or `*`; `*\/sub` covers
 * that subresource; a held rule without resourceNames covers every name, one with names only
 * those; a held URL ending in `*` covers the URLs under it. What is not covered is returned, in
 * kube's compact wording, for the refusal's message.
 */
import type { PolicyRule } from './types.ts'

const has = (set: readonly string[] | undefined, v: string) => (set ?? []).includes(v)
const hasAll = (set: readonly string[] | undefined, vs: readonly string[] | undefined) =>
  (vs ?? []).every((v) => has(set, v))

function resourceCoversAll(set: readonly string[] | undefined, covers: readonly string[]) {
  if (has(set, '*') || hasAll(set, covers)) return true
  return covers.every((path) => {
    if (has(set, path)) return true
    const slash = path.indexOf('/')
    return slash >= 0 && has(set, `*/${path.slice(slash + 1)}`)
  })
}

const urlCovers = (owner: string, sub: string) =>
  owner === sub || (owner.endsWith('*') && sub.startsWith(owner.replace(/\*+$/, '')))

function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = has(owner.verbs, '*') || hasAll(owner.verbs, sub.verbs)
  const groups = has(owner.apiGroups, '*') || hasAll(owner.apiGroups, sub.apiGroups)
  const resources = resourceCoversAll(owner.resources, sub.resources ?? [])
  const urls = (sub.nonResourceURLs ?? []).every((u) =>
    (owner.nonResourceURLs ?? []).some((o) => urlCovers(o, u))
  )
  const ownerNames = owner.resourceNames ?? []
  const names =
    (sub.resourceNames ?? []).length === 0
      ? ownerNames.length === 0
      : ownerNames.length === 0 || hasAll(ownerNames, sub.resourceNames)
  return verbs && groups && resources && names && urls
}

/** A rule as simple rules: one verb, group, resource and name each (kube's BreakdownRule). */
export function breakdown(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = []
  for (const group of rule.apiGroups ?? [])
    for (const resource of rule.resources ?? [])
      for (const verb of rule.verbs) {
        const names = rule.resourceNames ?? []
        if (names.length === 0)
          out.push({ verbs: [verb], apiGroups: [group], resources: [resource] })
        for (const name of names)
          out.push({
            verbs: [verb],
            apiGroups: [group],
            resources: [resource],
            resourceNames: [name],
          })
      }
  for (const url of rule.nonResourceURLs ?? [])
    for (const verb of rule.verbs) out.push({ verbs: [verb], nonResourceURLs: [url] })
  return out
}

/** The simple rules of `requested` that no rule of `held` covers (empty: covered). */
export function uncovered(held: readonly PolicyRule[], requested: readonly PolicyRule[]) {
  return requested.flatMap(breakdown).filter((s) => !held.some((h) => ruleCovers(h, s)))
}

const q = (list: readonly string[]) => `[${list.map((v) => JSON.stringify(v)).join(' ')}]`

/** kube's CompactString of a rule: `{APIGroups:["apps"], Resources:["deployments"], Verbs:["get"]}`. */
export function compactRule(r: PolicyRule): string {
  const parts: string[] = []
  if (r.apiGroups?.length) parts.push(`APIGroups:${q(r.apiGroups)}`)
  if (r.resources?.length) parts.push(`Resources:${q(r.resources)}`)
  if (r.nonResourceURLs?.length) parts.push(`NonResourceURLs:${q(r.nonResourceURLs)}`)
  if (r.resourceNames?.length) parts.push(`ResourceNames:${q(r.resourceNames)}`)
  parts.push(`Verbs:${q(r.verbs)}`)
  return `{${parts.join(', ')}}`
}

/** Go's %q of a string list, as kube prints a user's groups. */
export const goQuotedList = q
