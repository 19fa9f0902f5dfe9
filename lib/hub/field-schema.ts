/**
 * Which lists of a target's kind merge by key, for server-side apply and the managed fields of
 * every write: the built-in table for kube's built-in groups (lib/patch/builtin-schemas.ts), else
 * the list markers of the kind's OpenAPI v3 schema — a CRD version's `openAPIV3Schema`, or the
 * schema derived from a zod-defined kind (the edge, kcp and token kinds; lib/apis/by-kind.ts),
 * where e.g. `EdgePlacement.status.conditions` is a map list keyed by `type`, so each step can own
 * its own condition. The derivation is memoized per schema object (weakly: schemas belong to
 * their registries).
 */
import { openApiSchemaFor } from '../apis/by-kind.ts'
import type { JsonObject } from '../kube/types.ts'
import { GENERIC_OBJECT, isBuiltinGroup, schemaForKind } from '../patch/builtin-schemas.ts'
import { nodeSchemaFromOpenApi } from '../patch/openapi-fields.ts'
import type { NodeSchema } from '../patch/patch-schema.ts'
import type { Target } from './target.ts'

const derived = new WeakMap<JsonObject, NodeSchema>()

function fromOpenApi(schema: JsonObject): NodeSchema {
  const hit = derived.get(schema)
  if (hit) return hit
  const out = nodeSchemaFromOpenApi(schema)
  derived.set(schema, out)
  return out
}

/** The merge-key schema of the target's kind. */
export function fieldSchemaFor(t: Pick<Target, 'info' | 'version'>): NodeSchema {
  const { group, kind } = t.info
  if (isBuiltinGroup(group)) return schemaForKind(group, kind)
  const openApi =
    t.info.source === 'crd' ? t.info.schema?.[t.version] : openApiSchemaFor(group, kind)
  return openApi ? fromOpenApi(openApi) : GENERIC_OBJECT
}
