/**
 * Validation of an object before the hub stores it. `validateObject` runs, in order: the metadata
 * rules (validate-meta.ts); a walk over the kind's OpenAPI v3 schema for types and unknown fields
 * (the CRD's openAPIV3Schema, the schema derived from the zod schemas of the edge and kcp kinds,
 * or the hand-written schemas of the built-in kinds); the zod schema of the edge and kcp kinds;
 * the value rules of common built-in kinds (when the object is well typed); the paths and values
 * of a Customizer (validate-customizer.ts). Unknown fields are causes with `strict` (kube's
 * fieldValidation=Strict) and warnings otherwise (Warn); for Ignore the caller drops the warnings.
 * Whatever the mode, the result carries the object without its unknown fields, as kube's
 * structural pruning leaves it: that is what the hub stores. Unknown fields the stored object
 * already had (`carried`, written before the hub pruned) are dropped without a cause or warning.
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
import { withoutFields } from './validate-prune.ts'
import { checkAgainstSchema } from './validate-schema.ts'
import { isRecord } from './validate-util.ts'
import { causesFromZod } from './validate-zod.ts'

export type ValidateOptions = {
  strict: boolean
  /** Paths of unknown fields the stored object carries: pruned, never reported. */
  carried?: ReadonlySet<string>
}
export type ValidationResult = {
  causes: StatusCause[]
  /** `unknown field "<path>"` for each unknown field when not strict (kube's Warn mode). */
  warnings: string[]
  /** Field paths of the unknown fields to report (not the carried ones), whatever the mode. */
  unknownFields: string[]
  /** `obj` without any unknown field (`obj` itself when it had none). */
  object: KubeObject
  /** Field paths of every field pruned from `object`, carried ones included. */
  pruned: string[]
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

/**
 * `obj` without the fields its schema does not know, and their paths: how a stored object is
 * read before a write, so fields kept by an older release neither fail nor survive the write.
 */
export function pruneUnknownFields(
  info: ResourceInfo,
  version: string,
  obj: KubeObject
): { object: KubeObject; pruned: string[] } {
  const schema = schemaFor(info, version)
  if (!schema) return { object: obj, pruned: [] }
  const check = checkAgainstSchema(obj, withStandardRoot(schema))
  return { object: withoutFields(obj, check.unknownPaths), pruned: check.unknownFields }
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
  let pruned: string[] = []
  let object = obj
  if (schema) {
    const check = checkAgainstSchema(obj, withStandardRoot(schema))
    pruned = check.unknownFields
    object = withoutFields(obj, check.unknownPaths)
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
  const unknownFields = pruned.filter((f) => !opts.carried?.has(f))
  for (const field of unknownFields) {
    const message = `unknown field "${field}"`
    if (opts.strict) causes.push({ reason: 'FieldValueInvalid', message, field })
    else warnings.push(message)
  }
  return { causes, warnings, unknownFields, object, pruned }
}
