/**
 * Admission rules of an edge.kcp.io Customizer beyond its zod schema: each replacement's `path`
 * must parse with the JSONPath subset translate uses (lib/jsonpath/parse.ts) and its `value`
 * must be JSON text, so a Customizer that could never apply is refused when written (422 naming
 * `replacements[i].path` or `replacements[i].value`) instead of failing at every translation.
 * When the Customizer asks for parameter expansion (`edge.kcp.io/expand-parameters: "true"`), a
 * string that references a parameter (`%(name)`) is only known per destination, so only what
 * fails at every destination is checked: an unterminated `%(` or an empty `%()`; a string without
 * references expands the same way everywhere (`%%` to `%`) and is checked after that expansion.
 * Entries the schema already refuses (not strings, a path not starting with `$`) are left to it.
 */
import { wantsExpansion } from '../customize/annotations.ts'
import { expandString } from '../customize/expand.ts'
import type { StatusCause } from '../errors.ts'
import { JsonPathError, parseJsonPath } from '../jsonpath/parse.ts'
import type { KubeObject } from './types.ts'
import { asArray, asRecord, asString, invalidCause } from './validate-util.ts'

/** The text translate will parse, or a problem when it cannot be known or is always wrong. */
type Expanded = { text: string } | { skip: true } | { problem: string }

function expanded(text: string, expand: boolean): Expanded {
  if (!expand) return { text }
  const res = expandString(text, () => undefined)
  if (res.problems.syntax.length > 0) return { problem: res.problems.syntax.join('; ') }
  if (res.problems.undefinedNames.length > 0) return { skip: true }
  return { text: res.value }
}

function pathProblem(path: string): string | undefined {
  try {
    parseJsonPath(path)
    return undefined
  } catch (e) {
    if (e instanceof JsonPathError) return e.message
    throw e
  }
}

function valueProblem(value: string): string | undefined {
  try {
    JSON.parse(value)
    return undefined
  } catch (e) {
    return `must be JSON text (${(e as Error).message})`
  }
}

function check(
  field: string,
  raw: string,
  expand: boolean,
  problemOf: (text: string) => string | undefined
): StatusCause | undefined {
  const e = expanded(raw, expand)
  if ('skip' in e) return undefined
  const problem = 'problem' in e ? `parameter expansion: ${e.problem}` : problemOf(e.text)
  return problem === undefined ? undefined : invalidCause(field, raw, problem)
}

/** Causes for the replacements of a Customizer that translate could never apply. */
export function customizerCauses(obj: KubeObject): StatusCause[] {
  const list = asArray((obj as unknown as Record<string, unknown>).replacements) ?? []
  const expand = wantsExpansion(obj)
  const causes: StatusCause[] = []
  list.forEach((entry, i) => {
    const r = asRecord(entry)
    const path = asString(r?.path)
    const value = asString(r?.value)
    if (path?.startsWith('$')) {
      const c = check(`replacements[${i}].path`, path, expand, pathProblem)
      if (c) causes.push(c)
    }
    if (value !== undefined) {
      const c = check(`replacements[${i}].value`, value, expand, valueProblem)
      if (c) causes.push(c)
    }
  })
  return causes
}
