/**
 * Field selectors: `parseFieldSelector` turns the `fieldSelector` query string into a predicate
 * over objects. Grammar as kube's: comma-separated terms (all must hold) of `field=value`,
 * `field==value` or `field!=value`; `\,`, `\=` and `\\` escape those characters in values.
 * `metadata.name` and `metadata.namespace` are supported everywhere; callers add per-kind fields
 * (e.g. `involvedObject.name` for Events, `status.phase` or `spec.nodeName` for Pods) as dotted
 * paths read from the object or as getter functions. Any other field is 400
 * `field label not supported: <field>`, as kube answers. A missing field reads as "".
 */
import { badRequest } from '../errors.ts'
import type { KubeObject } from './types.ts'

export type FieldOperator = '=' | '!='
export type FieldRequirement = { field: string; operator: FieldOperator; value: string }
export type FieldGetter = (obj: KubeObject) => string | undefined
export type FieldMatcher = (obj: KubeObject) => boolean

const DEFAULT_FIELDS: Readonly<Record<string, FieldGetter>> = {
  'metadata.name': (obj) => obj.metadata.name,
  'metadata.namespace': (obj) => obj.metadata.namespace,
}

/** Parses a field selector string into requirements (400 BadRequest when malformed). */
export function parseFieldRequirements(selector: string): FieldRequirement[] {
  return splitTerms(selector)
    .filter((term) => term.trim() !== '')
    .map((term) => {
      const [field, operator, raw] = splitTerm(term, selector)
      return { field: field.trim(), operator, value: unescapeValue(raw.trim(), selector) }
    })
}

/**
 * A predicate for a field selector string. `extraFields` are dotted paths the kind supports in
 * addition to `metadata.name` and `metadata.namespace`; `getters` supply fields computed another way.
 */
export function parseFieldSelector(
  selector: string,
  extraFields: readonly string[] = [],
  getters: Readonly<Record<string, FieldGetter>> = {}
): FieldMatcher {
  const supported = new Map<string, FieldGetter>(Object.entries(DEFAULT_FIELDS))
  for (const path of extraFields) supported.set(path, (obj) => fieldValueAt(obj, path))
  for (const [name, getter] of Object.entries(getters)) supported.set(name, getter)
  const checks = parseFieldRequirements(selector).map((r) => {
    const getter = supported.get(r.field)
    if (!getter) throw badRequest(`field label not supported: ${r.field}`)
    return { ...r, getter }
  })
  return (obj) =>
    checks.every(
      ({ getter, operator, value }) => ((getter(obj) ?? '') === value) === (operator === '=')
    )
}

/** The value at a dotted path as a field selector sees it: scalars as strings, else undefined. */
export function fieldValueAt(obj: KubeObject, path: string): string | undefined {
  let current: unknown = obj
  for (const part of path.split('.')) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined
    current = Object.hasOwn(current, part) ? (current as Record<string, unknown>)[part] : undefined
  }
  if (typeof current === 'string') return current
  if (typeof current === 'number' || typeof current === 'boolean') return String(current)
  return undefined
}

/** Splits on commas that are not escaped with a backslash. */
function splitTerms(text: string): string[] {
  const terms: string[] = []
  let start = 0
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++
    else if (text[i] === ',') {
      terms.push(text.slice(start, i))
      start = i + 1
    }
  }
  terms.push(text.slice(start))
  return terms
}

const OPERATORS: readonly [string, FieldOperator][] = [
  ['!=', '!='],
  ['==', '='],
  ['=', '='],
]

/** `field op value`, at the first operator found from the left. */
function splitTerm(term: string, selector: string): [string, FieldOperator, string] {
  for (let i = 0; i < term.length; i++) {
    for (const [text, operator] of OPERATORS) {
      if (term.startsWith(text, i)) return [term.slice(0, i), operator, term.slice(i + text.length)]
    }
  }
  throw badRequest(`invalid selector: '${selector}'; can't understand '${term}'`)
}

/** A value with kube's escapes for `\`, `,` and `=` (the inverse of unescapeValue). */
export function escapeFieldValue(value: string): string {
  return value.replace(/[\\,=]/g, (c) => `\\${c}`)
}

function unescapeValue(raw: string, selector: string): string {
  let out = ''
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]
    if (c !== '\\') {
      out += c
      continue
    }
    const next = raw[++i]
    if (next !== '\\' && next !== ',' && next !== '=') {
      throw badRequest(`invalid field selector "${selector}": invalid escape sequence in "${raw}"`)
    }
    out += next
  }
  return out
}
