/**
 * Checks a JSON value against an OpenAPI v3 schema in Kubernetes' structural dialect, the way the
 * API server treats a CRD's openAPIV3Schema: type, required, enum, string/number/array bounds and
 * pattern, `nullable`, `x-kubernetes-int-or-string`, `x-kubernetes-embedded-resource`, and
 * unknown fields (any property not declared, unless `x-kubernetes-preserve-unknown-fields` or
 * `additionalProperties` allows it). Unknown fields are returned separately from the causes, both
 * as kube field paths for messages and as segment lists for pruning (validate-prune.ts), so the
 * caller can reject them (Strict) or drop them (Warn, Ignore). Null values are accepted and
 * skipped, as kube prunes nulls of non-nullable fields.
 */
import type { StatusCause } from '../errors.ts'
import type { JsonObject, JsonValue } from './types.ts'
import {
  childPath,
  indexPath,
  invalidCause,
  isRecord,
  keyPath,
  notSupportedCause,
  requiredCause,
  typeInvalidCause,
} from './validate-util.ts'

/** A field's location as property names and list indexes: `['spec', 'ports', 0, 'bogus']`. */
export type FieldSegments = (string | number)[]

export type SchemaCheckResult = {
  causes: StatusCause[]
  /** Kube field paths of the unknown fields (`spec.ports[0].bogus`). */
  unknownFields: string[]
  /** The same fields as segments, in the same order. */
  unknownPaths: FieldSegments[]
}

/** The segments walked to a value, innermost last, kept as a chain so the walk copies nothing. */
type Trail = { up: Trail | undefined; seg: string | number } | undefined

function segmentsOf(trail: Trail): FieldSegments {
  const out: FieldSegments = []
  for (let t = trail; t; t = t.up) out.push(t.seg)
  return out.reverse()
}

type Schema = JsonObject

const asSchema = (v: JsonValue | undefined): Schema | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? v : undefined

function branches(s: Schema): Schema[] {
  const out: Schema[] = []
  for (const k of ['allOf', 'anyOf', 'oneOf']) {
    const list = s[k]
    if (Array.isArray(list)) for (const b of list) if (asSchema(b)) out.push(b as Schema)
  }
  return out
}

function properties(s: Schema): Record<string, Schema> {
  const out: Record<string, Schema> = {}
  for (const src of [s, ...branches(s)]) {
    const props = asSchema(src.properties)
    if (!props) continue
    for (const [k, v] of Object.entries(props)) if (asSchema(v) && !(k in out)) out[k] = v as Schema
  }
  return out
}

/** Required properties: the schema's own and its allOf branches' (anyOf/oneOf are alternatives). */
function required(s: Schema): string[] {
  const out: string[] = []
  const allOf = Array.isArray(s.allOf) ? s.allOf.map(asSchema) : []
  for (const src of [s, ...allOf]) {
    if (src && Array.isArray(src.required)) {
      for (const r of src.required) if (typeof r === 'string') out.push(r)
    }
  }
  return out
}

function typeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case 'object':
      return isRecord(value)
    case 'array':
      return Array.isArray(value)
    case 'string':
      return typeof value === 'string'
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value)
    case 'number':
      return typeof value === 'number'
    case 'boolean':
      return typeof value === 'boolean'
    default:
      return true
  }
}

function checkScalar(value: unknown, s: Schema, path: string, out: SchemaCheckResult): void {
  if (Array.isArray(s.enum) && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
    out.causes.push(notSupportedCause(path, value, s.enum))
  }
  if (typeof value === 'string') {
    if (typeof s.maxLength === 'number' && value.length > s.maxLength) {
      out.causes.push({
        reason: 'FieldValueTooLong',
        field: path,
        message: `Too long: may not be more than ${s.maxLength} bytes`,
      })
    }
    if (typeof s.minLength === 'number' && value.length < s.minLength) {
      out.causes.push(
        invalidCause(path, value, `${path} in body should be at least ${s.minLength} chars long`)
      )
    }
    if (typeof s.pattern === 'string' && !safeTest(s.pattern, value)) {
      out.causes.push(invalidCause(path, value, `${path} in body should match '${s.pattern}'`))
    }
  }
  if (typeof value === 'number') {
    if (
      typeof s.minimum === 'number' &&
      (s.exclusiveMinimum === true ? value <= s.minimum : value < s.minimum)
    ) {
      out.causes.push(
        invalidCause(path, value, `${path} in body should be greater than or equal to ${s.minimum}`)
      )
    }
    if (
      typeof s.maximum === 'number' &&
      (s.exclusiveMaximum === true ? value >= s.maximum : value > s.maximum)
    ) {
      out.causes.push(
        invalidCause(path, value, `${path} in body should be less than or equal to ${s.maximum}`)
      )
    }
  }
}

function safeTest(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(value)
  } catch {
    return true
  }
}

function checkObject(
  value: Record<string, unknown>,
  s: Schema,
  at: { path: string; trail: Trail },
  out: SchemaCheckResult
): void {
  const { path, trail } = at
  for (const r of required(s))
    if (value[r] === undefined) out.causes.push(requiredCause(childPath(path, r)))
  const props = properties(s)
  const extra = s.additionalProperties
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true
  const embedded = s['x-kubernetes-embedded-resource'] === true
  for (const [k, v] of Object.entries(value)) {
    const prop = props[k]
    const next: Trail = { up: trail, seg: k }
    if (prop) walk(v, prop, { path: childPath(path, k), trail: next }, out)
    else if (asSchema(extra)) walk(v, extra as Schema, { path: keyPath(path, k), trail: next }, out)
    else if (extra === true || preserve) continue
    else if (embedded && (k === 'apiVersion' || k === 'kind' || k === 'metadata')) continue
    else {
      out.unknownFields.push(childPath(path, k))
      out.unknownPaths.push(segmentsOf(next))
    }
  }
}

function walk(
  value: unknown,
  s: Schema,
  at: { path: string; trail: Trail },
  out: SchemaCheckResult
): void {
  if (value === null || value === undefined) return
  const { path, trail } = at
  if (s['x-kubernetes-int-or-string'] === true) {
    if (typeof value !== 'string' && !(typeof value === 'number' && Number.isInteger(value))) {
      out.causes.push(typeInvalidCause(path, value, 'integer,string'))
    }
    return
  }
  const type = typeof s.type === 'string' ? s.type : undefined
  if (type && !typeMatches(type, value)) {
    out.causes.push(typeInvalidCause(path, value, type))
    return
  }
  if (Array.isArray(value)) {
    if (typeof s.maxItems === 'number' && value.length > s.maxItems) {
      out.causes.push({
        reason: 'FieldValueTooMany',
        field: path,
        message: `Too many: ${value.length}: must have at most ${s.maxItems} items`,
      })
    }
    if (typeof s.minItems === 'number' && value.length < s.minItems) {
      out.causes.push(
        invalidCause(path, value.length, `${path} in body should have at least ${s.minItems} items`)
      )
    }
    const items = asSchema(s.items)
    if (items) {
      value.forEach((v, i) => {
        walk(v, items, { path: indexPath(path, i), trail: { up: trail, seg: i } }, out)
      })
    }
    return
  }
  if (isRecord(value)) {
    const constrained =
      type === 'object' ||
      s.properties !== undefined ||
      s.additionalProperties !== undefined ||
      branches(s).length > 0
    if (constrained) checkObject(value, s, at, out)
    return
  }
  checkScalar(value, s, path, out)
}

/** Checks `value` (at field path `path`, '' for the root) against `schema`. */
export function checkAgainstSchema(
  value: unknown,
  schema: JsonObject,
  path = ''
): SchemaCheckResult {
  const out: SchemaCheckResult = { causes: [], unknownFields: [], unknownPaths: [] }
  walk(value, schema, { path, trail: undefined }, out)
  return out
}
