/**
 * Validation of an object before the hub stores it. `validateObject` runs, in order: the metadata
 * rules (validate-meta.ts); a walk over the kind's OpenAPI v3 schema for types and unknown fields
 * (the CRD's openAPIV3Schema, the schema derived from the zod schemas of the edge and kcp kinds,
 * or the hand-written schemas of the built-in kinds); the zod schema of the edge and kcp kinds;
 * the value rules of common built-in kinds (when the object is well typed); the paths and values
 * of a Customizer (validate-customizer.ts). Unknown fields are causes with `strict` (kube's
 * fieldValidation=Strict) and warnings otherwise (Warn); for Ignore the caller drops the warnings.
 * kube reports strict unknown fields as 400 BadRequest with `strictDecodingMessage`, other causes
 * as 422 Invalid; the caller chooses.
 */
import { openApiSchemaFor, zodSchemaFor } from '../apis/by-kind.ts'
import type { StatusCause } from '../errors.ts'
import type { ResourceInfo } from './resource-info.ts'
import type { JsonObject, KubeObject } from './types.ts'
import { OBJECT_META, str } from './validate-builtin-dsl.ts'
import { builtinRuleCauses } from './validate-builtin-rules.ts'
import { builtinSchemaFor } from './validate-builtin-schemas.ts'
import { customizerCauses } from './validate-customizer.ts'
import { validateObjectMeta } from './validate-meta.ts'
import { checkAgainstSchema } from './validate-schema.ts'
import { isRecord } from './validate-util.ts'
import { causesFromZod } from './validate-zod.ts'

export type ValidateOptions = { strict: boolean }
export type ValidationResult = {
  causes: StatusCause[]
  /** `unknown field "<path>"` for each unknown field when not strict (kube's Warn mode). */
  warnings: string[]
  /** Field paths of the unknown fields, whatever the mode. */
  unknownFields: string[]
}

/**
 * The schema an object of this resource at this version is checked against: the CRD's
 * openAPIV3Schema, the zod-derived schema of an edge/kcp kind, or a built-in kind's schema.
 */
export function schemaFor(info: ResourceInfo, version: string): JsonObject | undefined {
  if (info.source === 'crd') return info.schema?.[version]
  return openApiSchemaFor(info.group, info.kind) ?? builtinSchemaFor(info)
}

const rootCache = new WeakMap<JsonObject, JsonObject>()

/** The schema with apiVersion, kind and metadata as kube defines them, whatever it declares. */
function withStandardRoot(schema: JsonObject): JsonObject {
  const hit = rootCache.get(schema)
  if (hit) return hit
  const props = isRecord(schema.properties) ? (schema.properties as JsonObject) : {}
  const root: JsonObject = {
    ...schema,
    type: 'object',
    properties: { ...props, apiVersion: str, kind: str, metadata: OBJECT_META },
  }
  rootCache.set(schema, root)
  return root
}

/** kube's message for a request rejected by strict field validation. */
export function strictDecodingMessage(unknownFields: string[]): string {
  return `strict decoding error: ${unknownFields.map((f) => `unknown field "${f}"`).join(', ')}`
}

/** Validates `obj` as an object of `info` at `version`. */
export function validateObject(
  info: ResourceInfo,
  version: string,
  obj: KubeObject,
  opts: ValidateOptions
): ValidationResult {
  const causes = validateObjectMeta(info, obj.metadata)
  const zod = info.source === 'builtin' ? zodSchemaFor(info.group, info.kind) : undefined
  const schema = schemaFor(info, version)
  let unknownFields: string[] = []
  if (schema) {
    const check = checkAgainstSchema(obj, withStandardRoot(schema))
    unknownFields = check.unknownFields
    // With zod, zod reports the body; the schema walk still reports metadata types.
    causes.push(
      ...(zod ? check.causes.filter((c) => c.field?.startsWith('metadata')) : check.causes)
    )
  }
  if (zod) {
    causes.push(...causesFromZod(zod, obj, ['apiVersion', 'kind', 'metadata']))
    if (info.group === 'edge.kcp.io' && info.kind === 'Customizer')
      causes.push(...customizerCauses(obj))
  } else if (
    info.source === 'builtin' &&
    !causes.some((c) => c.reason === 'FieldValueTypeInvalid')
  ) {
    // Value rules assume well-typed input; with type errors they would only add noise.
    causes.push(...builtinRuleCauses(info.group, info.kind, obj))
  }

  const warnings: string[] = []
  for (const field of unknownFields) {
    const message = `unknown field "${field}"`
    if (opts.strict) causes.push({ reason: 'FieldValueInvalid', message, field })
    else warnings.push(message)
  }
  return { causes, warnings, unknownFields }
}
