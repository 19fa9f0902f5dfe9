/**
 * Lookup of the zod schema (and the OpenAPI v3 schema derived from it, computed once per kind) of
 * every kind the hub validates with zod: the edge.kcp.io/v1alpha1 kinds (the Rollout among them) and the kcp
 * tenancy.kcp.io and apis.kcp.io kinds, and edgeplane's Token, Inventory, PlacementGrant and SpaceQuota. Other kinds return undefined.
 */
import type { z } from 'zod'
import type { JsonObject } from '../kube/types.ts'
import { RolloutSchema } from './edge-rollout.ts'
import { EDGE_SCHEMAS } from './edge-v1alpha1.ts'
import { GRANT_GROUP, GRANT_SCHEMAS } from './grants.ts'
import { openApiSchemaFromZod } from './json-schema.ts'
import { APIS_SCHEMAS, TENANCY_SCHEMAS } from './tenancy.ts'
import { TOKEN_GROUP, TOKEN_SCHEMAS } from './tokens.ts'

const BY_GROUP: Record<string, Record<string, z.ZodType>> = {
  'edge.kcp.io': { ...EDGE_SCHEMAS, Rollout: RolloutSchema },
  'tenancy.kcp.io': TENANCY_SCHEMAS,
  'apis.kcp.io': APIS_SCHEMAS,
  [TOKEN_GROUP]: TOKEN_SCHEMAS,
  [GRANT_GROUP]: GRANT_SCHEMAS,
}

/** The zod schema of a kind, or undefined when it is not validated by zod. */
export function zodSchemaFor(group: string, kind: string): z.ZodType | undefined {
  const schemas = BY_GROUP[group]
  return schemas && Object.hasOwn(schemas, kind) ? schemas[kind] : undefined
}

const openApiCache = new Map<string, JsonObject>()

/** The OpenAPI v3 schema derived from the kind's zod schema (cached; do not mutate). */
export function openApiSchemaFor(group: string, kind: string): JsonObject | undefined {
  const key = `${group}/${kind}`
  const cached = openApiCache.get(key)
  if (cached) return cached
  const schema = zodSchemaFor(group, kind)
  if (!schema) return undefined
  const out = openApiSchemaFromZod(schema)
  openApiCache.set(key, out)
  return out
}
