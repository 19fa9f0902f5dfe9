/**
 * zod schemas and types of the kcp kinds the hub serves, kept loose (unknown fields in spec and
 * status are allowed, as kcp has more than the hub uses): `tenancy.kcp.io/v1alpha1` Workspace
 * (spec.type, spec.location, spec.cluster, spec.URL; status.phase, status.URL, status.cluster,
 * conditions) and WorkspaceType, and `apis.kcp.io/v1alpha1` APIBinding (spec.reference.export
 * {path, name}) and APIExport.
 */
import { z } from 'zod'
import { ConditionSchema, LabelSelectorSchema, ObjectMetaSchema } from './meta.ts'

export const TENANCY_API_VERSION = 'tenancy.kcp.io/v1alpha1'
export const APIS_API_VERSION = 'apis.kcp.io/v1alpha1'

const objectOf = <K extends string, S extends z.ZodRawShape>(kind: K, shape: S) =>
  z.object({ apiVersion: z.string(), kind: z.literal(kind), metadata: ObjectMetaSchema, ...shape })

export const WORKSPACE_PHASES = ['Scheduling', 'Initializing', 'Ready', 'Terminating'] as const

export const WorkspaceSpecSchema = z.looseObject({
  type: z.looseObject({ name: z.string(), path: z.string().optional() }).optional(),
  location: z.looseObject({ selector: LabelSelectorSchema.optional() }).optional(),
  cluster: z.string().optional().describe('Logical-cluster id of the space; set by the hub.'),
  URL: z.string().optional(),
})
export const WorkspaceStatusSchema = z.looseObject({
  phase: z.string().optional().describe('Scheduling, Initializing, Ready or Terminating.'),
  URL: z.string().optional(),
  cluster: z.string().optional(),
  initializers: z.array(z.string()).optional(),
  conditions: z.array(ConditionSchema).optional(),
})
export const WorkspaceSchema = objectOf('Workspace', {
  spec: WorkspaceSpecSchema.optional(),
  status: WorkspaceStatusSchema.optional(),
})
export type Workspace = z.infer<typeof WorkspaceSchema>

export const WorkspaceTypeSchema = objectOf('WorkspaceType', {
  spec: z.looseObject({}).optional(),
  status: z.looseObject({}).optional(),
})
export type WorkspaceType = z.infer<typeof WorkspaceTypeSchema>

export const ExportReferenceSchema = z.looseObject({
  path: z
    .string()
    .optional()
    .describe('Path of the space holding the APIExport; empty = this one.'),
  name: z.string(),
})
export const APIBindingSchema = objectOf('APIBinding', {
  spec: z
    .looseObject({ reference: z.looseObject({ export: ExportReferenceSchema.optional() }) })
    .optional(),
  status: z
    .looseObject({
      phase: z.string().optional(),
      apiExportClusterName: z.string().optional(),
      boundResources: z.array(z.looseObject({})).optional(),
      conditions: z.array(ConditionSchema).optional(),
    })
    .optional(),
})
export type APIBinding = z.infer<typeof APIBindingSchema>

export const APIExportSchema = objectOf('APIExport', {
  spec: z
    .looseObject({
      latestResourceSchemas: z.array(z.string()).optional(),
      identity: z.looseObject({}).optional(),
      permissionClaims: z.array(z.looseObject({})).optional(),
    })
    .optional(),
  status: z
    .looseObject({
      identityHash: z.string().optional(),
      conditions: z.array(ConditionSchema).optional(),
    })
    .optional(),
})
export type APIExport = z.infer<typeof APIExportSchema>

export const TENANCY_SCHEMAS = {
  Workspace: WorkspaceSchema,
  WorkspaceType: WorkspaceTypeSchema,
} as const

export const APIS_SCHEMAS = {
  APIBinding: APIBindingSchema,
  APIExport: APIExportSchema,
} as const
