/**
 * kube's defaults as data: a `Scope` names the nodes of an object it covers (a spec, each
 * container, each Service port...), the rules that fill a node's unset members, and the scopes
 * inside it. One table serves both directions, so they cannot drift apart:
 *
 * - `fillScopes` is what kube-apiserver does on every write (SetObjectDefaults): per node, its
 *   rules in order (a rule may read members earlier rules set), then its inner scopes.
 * - `stripScopes` is the inverse the translate step needs: it removes each member whose value is
 *   exactly what its rule would fill in, inner scopes first and rules in reverse, but only when
 *   filling the node again gives it back (so a default that depends on another member being
 *   unset, as a Job's completions does on parallelism, is kept when removing it would change what
 *   the edge fills in). For every object, filling the stripped object equals filling the object.
 *
 * A member is unset when undefined, null or '' (kube's zero string and nil pointer); a rule can
 * count 0 as unset too (kube's probe timings are plain ints). Rules return undefined where they
 * give no default.
 */
import { deepEqual } from '../../patch/json-values.ts'

export type Node = Record<string, unknown>

export type DefaultRule = {
  key: string
  /** The default of `key` in `node`; undefined when there is none here. */
  value: (node: Node) => unknown
  /** A 0 is unset too. */
  zeroUnset?: boolean
}

export type Scope = {
  /** The nodes this scope covers under `parent` (absent members yield none). */
  nodes: (parent: Node) => Node[]
  rules: readonly DefaultRule[]
  inner?: readonly Scope[]
}

export const isNode = (v: unknown): v is Node =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** `parent[key]` as the one node, when it is an object. */
export const member =
  (key: string) =>
  (parent: Node): Node[] => {
    const v = parent[key]
    return isNode(v) ? [v] : []
  }

/** The object items of the array `parent[key]`. */
export const items =
  (key: string) =>
  (parent: Node): Node[] => {
    const v = parent[key]
    return Array.isArray(v) ? v.filter(isNode) : []
  }

/** The object items of several arrays, in order. */
export const itemsOf =
  (...keys: string[]) =>
  (parent: Node): Node[] =>
    keys.flatMap((k) => items(k)(parent))

/** A rule with a constant default. */
export const constant = (key: string, value: unknown): DefaultRule => ({ key, value: () => value })

/** A rule whose default is an empty object, filled further by an inner scope. */
export const emptyObject = (key: string): DefaultRule => ({ key, value: () => ({}) })

function unset(rule: DefaultRule, v: unknown): boolean {
  return v === undefined || v === null || v === '' || (rule.zeroUnset === true && v === 0)
}

function fillRules(node: Node, rules: readonly DefaultRule[]): void {
  for (const rule of rules) {
    if (!unset(rule, node[rule.key])) continue
    const value = rule.value(node)
    if (value !== undefined) node[rule.key] = structuredClone(value)
  }
}

/** Fills every node of `scopes` under `parent`, in place. */
export function fillScopes(parent: Node, scopes: readonly Scope[]): void {
  for (const scope of scopes) {
    for (const node of scope.nodes(parent)) {
      fillRules(node, scope.rules)
      if (scope.inner) fillScopes(node, scope.inner)
    }
  }
}

/** `node` with its own rules filled: a shallow copy (rules set top-level members only). */
function filledCopy(node: Node, rules: readonly DefaultRule[]): Node {
  const copy = { ...node }
  fillRules(copy, rules)
  return copy
}

function sameMembers(a: Node, b: Node, rules: readonly DefaultRule[]): boolean {
  return rules.every((r) => deepEqual(a[r.key], b[r.key]))
}

function stripRules(node: Node, rules: readonly DefaultRule[]): void {
  const whole = filledCopy(node, rules)
  for (const rule of [...rules].reverse()) {
    const v = node[rule.key]
    if (v === undefined || !deepEqual(v, rule.value(node))) continue
    const trial = { ...node }
    delete trial[rule.key]
    if (sameMembers(filledCopy(trial, rules), whole, rules)) delete node[rule.key]
  }
}

/** Removes from every node of `scopes` under `parent` what filling would put back, in place. */
export function stripScopes(parent: Node, scopes: readonly Scope[]): void {
  for (const scope of [...scopes].reverse()) {
    for (const node of scope.nodes(parent)) {
      if (scope.inner) stripScopes(node, scope.inner)
      stripRules(node, scope.rules)
    }
  }
}
