/**
 * Turns a zod schema of an API kind into an OpenAPI v3 schema in Kubernetes' structural dialect,
 * so one definition serves both validation and `/openapi/v3`: open objects and untyped values
 * become `x-kubernetes-preserve-unknown-fields`, string-or-number unions become
 * `x-kubernetes-int-or-string`, and zod's safe-integer bounds become int32/int64 formats.
 */
import { z } from 'zod'
import type { JsonObject, JsonValue } from '../kube/types.ts'

const INT32_MIN = -2147483648
const INT32_MAX = 2147483647

function isObj(v: JsonValue | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function isEmpty(s: JsonObject): boolean {
  return Object.keys(s).filter((k) => k !== 'description').length === 0
}

function isIntOrString(s: JsonObject): boolean {
  const any = s.anyOf
  if (!Array.isArray(any) || any.length !== 2) return false
  const types = any.map((b) => (isObj(b) ? b.type : undefined)).sort()
  return types[1] === 'string' && (types[0] === 'number' || types[0] === 'integer')
}

function fixIntegers(s: JsonObject): void {
  if (s.type !== 'integer') return
  if (s.minimum === INT32_MIN && s.maximum === INT32_MAX) {
    delete s.minimum
    delete s.maximum
    s.format = 'int32'
  } else if (s.minimum === Number.MIN_SAFE_INTEGER && s.maximum === Number.MAX_SAFE_INTEGER) {
    delete s.minimum
    delete s.maximum
    s.format = 'int64'
  } else if (s.maximum === INT32_MAX) {
    delete s.maximum
    s.format = 'int32'
  }
}

/** Rewrites one generated node (and its children) into kube's structural dialect. */
function structural(node: JsonValue): JsonValue {
  if (Array.isArray(node)) return node.map(structural)
  if (!isObj(node)) return node
  if (isEmpty(node)) return { ...node, 'x-kubernetes-preserve-unknown-fields': true }
  if (isIntOrString(node)) {
    const out: JsonObject = { 'x-kubernetes-int-or-string': true }
    if (node.description !== undefined) out.description = node.description
    return out
  }
  const out: JsonObject = {}
  for (const [k, v] of Object.entries(node)) {
    if (k === '$schema') continue
    if (k === 'properties' && isObj(v)) {
      out.properties = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, structural(s)]))
    } else out[k] = structural(v)
  }
  // z.looseObject: properties plus "anything else" -> keep the known properties, preserve the rest.
  const extra = out.additionalProperties
  if (
    out.properties !== undefined &&
    isObj(extra) &&
    extra['x-kubernetes-preserve-unknown-fields'] === true
  ) {
    delete out.additionalProperties
    out['x-kubernetes-preserve-unknown-fields'] = true
  } else if (
    out.type === 'object' &&
    isObj(extra) &&
    extra['x-kubernetes-preserve-unknown-fields'] === true &&
    Object.keys(extra).length === 1
  ) {
    delete out.additionalProperties
    out['x-kubernetes-preserve-unknown-fields'] = true
  }
  fixIntegers(out)
  return out
}

/** The OpenAPI v3 (structural) schema of a zod schema, describing its accepted input. */
export function openApiSchemaFromZod(schema: z.ZodType): JsonObject {
  const raw = z.toJSONSchema(schema, {
    target: 'openapi-3.0',
    io: 'input',
    reused: 'inline',
    unrepresentable: 'any',
  }) as JsonObject
  const out = structural(raw)
  return isObj(out) ? out : {}
}
