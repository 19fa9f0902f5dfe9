/**
 * Customizing one object for one destination (reference §4), all or nothing: first, when asked,
 * every leaf string of the object is expanded (expand.ts); then each replacement in order has its
 * path and value expanded (when the Customizer asks), its path parsed (lib/jsonpath/parse.ts),
 * its value parsed as JSON text, and the value set at every place the path selects
 * (lib/jsonpath/set.ts). Any undefined parameter, bad `%(` syntax, unparsable path or value, or
 * replacement that cannot be made fails the whole customization, with a message that names the
 * replacement and never the destination (the caller adds that, so one message fits every
 * destination with the same problem); the caller then sends the object uncustomized. A result that changes the object's
 * apiVersion, kind, name or namespace fails too (a copy keeps the identity of its source), and so
 * does one whose labels or annotations are no longer maps of strings. The input is never changed.
 */
import { JsonPathError, parseJsonPath } from '../jsonpath/parse.ts'
import { ReplacementError, setAtPath } from '../jsonpath/set.ts'
import type { JsonObject, JsonValue, KubeObject } from '../kube/types.ts'
import { isJsonObject } from '../patch/json-values.ts'
import {
  type ExpansionProblems,
  expandLeaves,
  expandString,
  hasProblems,
  type Parameters,
} from './expand.ts'

export type Replacement = { path: string; value: string }

export type CustomizeOptions = {
  /** Expand every leaf string of the object (it is annotated expand-parameters: "true"). */
  expandObject: boolean
  /** The Customizer's replacements, in order (none without a Customizer). */
  replacements: readonly Replacement[]
  /** Expand each replacement's path and value (the Customizer is annotated). */
  expandReplacements: boolean
  /** The destination's parameters; needed when either expansion is asked for. */
  parameters: Parameters
}

export type CustomizeFailure =
  | { reason: 'UndefinedParameter'; names: string[]; message: string }
  | { reason: 'CustomizationFailed'; message: string }

export type CustomizeResult =
  | { ok: true; object: KubeObject }
  | { ok: false; failure: CustomizeFailure }

const fail = (message: string): CustomizeResult => ({
  ok: false,
  failure: { reason: 'CustomizationFailed', message },
})

function merge(into: { names: Set<string>; syntax: string[] }, p: ExpansionProblems): void {
  for (const n of p.undefinedNames) into.names.add(n)
  into.syntax.push(...p.syntax)
}

const identity = (o: JsonObject) => {
  const m = isJsonObject(o.metadata) ? o.metadata : {}
  return JSON.stringify([o.apiVersion, o.kind, m.name, m.namespace])
}

/** Expands the replacements when asked; the problems of all of them are collected. */
function expandReplacements(
  opts: CustomizeOptions,
  found: { names: Set<string>; syntax: string[] }
) {
  if (!opts.expandReplacements) return opts.replacements
  return opts.replacements.map((r) => {
    const path = expandString(r.path, opts.parameters)
    const value = expandString(r.value, opts.parameters)
    merge(found, path.problems)
    merge(found, value.problems)
    return { path: path.value, value: value.value }
  })
}

/** Applies one replacement to `target` (mutated); a message when it cannot. */
function replace(target: JsonObject, r: Replacement, n: number): string | undefined {
  const which = `replacement ${n} (path ${JSON.stringify(r.path)})`
  let value: JsonValue
  try {
    value = JSON.parse(r.value) as JsonValue
  } catch (e) {
    return `${which}: value ${JSON.stringify(r.value)} is not JSON text (${(e as Error).message})`
  }
  try {
    setAtPath(target, parseJsonPath(r.path), value)
  } catch (e) {
    if (e instanceof JsonPathError || e instanceof ReplacementError) return `${which}: ${e.message}`
    throw e
  }
  return undefined
}

export function customizeObject(object: KubeObject, opts: CustomizeOptions): CustomizeResult {
  const found = { names: new Set<string>(), syntax: [] as string[] }
  let target = structuredClone(object) as unknown as JsonObject
  if (opts.expandObject) {
    const expanded = expandLeaves(target, opts.parameters)
    merge(found, expanded.problems)
    target = expanded.value
  }
  const replacements = expandReplacements(opts, found)
  if (found.names.size > 0) {
    const names = [...found.names].sort()
    const list = names.map((x) => `"${x}"`).join(', ')
    const message = `parameter${names.length > 1 ? 's' : ''} ${list} undefined (no such label or annotation on the destination's Location)`
    return { ok: false, failure: { reason: 'UndefinedParameter', names, message } }
  }
  if (hasProblems({ undefinedNames: [], syntax: found.syntax }))
    return fail(`parameter expansion: ${[...new Set(found.syntax)].sort().join('; ')}`)
  const before = identity(target)
  for (const [i, r] of replacements.entries()) {
    const problem = replace(target, r, i + 1)
    if (problem) return fail(problem)
  }
  if (!isJsonObject(target.metadata) || identity(target) !== before)
    return fail('the result changes the apiVersion, kind, name or namespace, which a copy keeps')
  for (const field of ['labels', 'annotations'] as const) {
    const map = target.metadata[field]
    if (map === undefined) continue
    if (!isJsonObject(map) || Object.values(map).some((v) => typeof v !== 'string'))
      return fail(`the result's metadata.${field} is not a map of strings`)
  }
  return { ok: true, object: target as unknown as KubeObject }
}
