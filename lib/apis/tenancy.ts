/**
 * zod schemas and types of the kcp kinds the hub serves, kept loose (unknown fields in spec and
 * status are allowed, as kcp has more than the hub uses): `tenancy.kcp.io/v1alpha1` Workspace
 * (spec.type, spec.location, spec.cluster, spec.URL; status.phase, status.URL, status.cluster,
 * conditions) and WorkspaceType, and `apis.kcp.io/v1alpha1` APIBinding (spec.reference.export
 * {path, name}) and APIExport.
 */
import { z } from 'zod'
import { kindObject } from './kind-object.ts'
import { ConditionSchema, LabelSelectorSchema } from './meta.ts'

export const TENANCY_API_VERSION = 'tenancy.kcp.io/v1alpha1'
export const APIS_API_VERSION = 'apis.kcp.io/v1alpha1'

export const WORKSPACE_PHASES = ['Scheduling', 'Initializing', 'Ready', 'Terminating'] as const

const conditions = () =>
  z.array(ConditionSchema).optional().describe('Conditions as kcp defines them.')

export const WorkspaceSpecSchema = z
  .looseObject({
    type: z
      .looseObject({
        name: z.string().describe('The WorkspaceType.'),
        path: z.string().optional().describe('Path of the space defining it.'),
      })
      .optional()
      .describe('The kcp WorkspaceType (default universal in root); kept, with no behaviour.'),
    location: z
      .looseObject({
        selector: LabelSelectorSchema.optional().describe('Shards to choose from, by label.'),
      })
      .optional()
      .describe('Where kcp would schedule the space; the hub has one store and ignores it.'),
    cluster: z.string().optional().describe('Logical-cluster id of the space; set by the hub.'),
    URL: z
      .string()
      .optional()
      .describe("kcp's field, kept as written: the space's URL is status.URL."),
  })
  .describe('What space to make.')
export const WorkspaceStatusSchema = z
  .looseObject({
    phase: z.string().optional().describe('Scheduling, Initializing, Ready or Terminating.'),
    URL: z.string().optional().describe("The space's URL, <hub>/clusters/<path>."),
    cluster: z.string().optional().describe('Logical-cluster id of the space.'),
    initializers: z
      .array(z.string())
      .optional()
      .describe('Initializers still to run before the space is Ready.'),
    conditions: conditions(),
  })
  .describe('Where the space stands.')
export const WorkspaceSchema = kindObject(
  'Workspace',
  'A child space of the space it is created in (kcp-style): root:team-a for a Workspace team-a ' +
    'in root, its own API at <hub>/clusters/<path>, with its own namespaces, objects and CRDs. ' +
    'Deleting it deletes the space and everything in it.',
  {
    spec: WorkspaceSpecSchema.optional(),
    status: WorkspaceStatusSchema.optional(),
  }
)
export type Workspace = z.infer<typeof WorkspaceSchema>

export const WorkspaceTypeSchema = kindObject(
  'WorkspaceType',
  'A kcp WorkspaceType, stored as data: the hub gives types no behaviour.',
  {
    spec: z.looseObject({}).optional().describe("kcp's WorkspaceType spec, kept as written."),
    status: z.looseObject({}).optional().describe("kcp's WorkspaceType status, kept as written."),
  }
)
export type WorkspaceType = z.infer<typeof WorkspaceTypeSchema>

export const ExportReferenceSchema = z.looseObject({
  path: z
    .string()
    .optional()
    .describe('Path of the space holding the APIExport; empty = this one.'),
  name: z.string().describe('The APIExport.'),
})
export const APIBindingSchema = kindObject(
  'APIBinding',
  "A kcp binding of a space to an APIExport, kept as data; placed, it goes to the edges' " +
    'mailboxes only, where it names the APIs the copies need.',
  {
    spec: z
      .looseObject({
        reference: z
          .looseObject({
            export: ExportReferenceSchema.optional().describe('The APIExport, by path and name.'),
          })
          .describe('What to bind.'),
      })
      .optional()
      .describe('What the binding binds.'),
    status: z
      .looseObject({
        phase: z.string().optional().describe("kcp's binding phase."),
        apiExportClusterName: z
          .string()
          .optional()
          .describe('Logical-cluster id of the APIExport.'),
        boundResources: z
          .array(z.looseObject({}))
          .optional()
          .describe('The resources bound, as kcp lists them.'),
        conditions: conditions(),
      })
      .optional()
      .describe("kcp's binding status, kept as written."),
  }
)
export type APIBinding = z.infer<typeof APIBindingSchema>

export const APIExportSchema = kindObject(
  'APIExport',
  'A kcp APIExport, kept as data: the hub serves APIs through CRDs in each space instead.',
  {
    spec: z
      .looseObject({
        latestResourceSchemas: z
          .array(z.string())
          .optional()
          .describe('Names of the APIResourceSchemas exported.'),
        identity: z.looseObject({}).optional().describe("The export's identity secret."),
        permissionClaims: z
          .array(z.looseObject({}))
          .optional()
          .describe('Resources of binding spaces the export claims access to.'),
      })
      .optional()
      .describe("kcp's APIExport spec, kept as written."),
    status: z
      .looseObject({
        identityHash: z.string().optional().describe("The export's identity hash."),
        conditions: conditions(),
      })
      .optional()
      .describe("kcp's APIExport status, kept as written."),
  }
)
export type APIExport = z.infer<typeof APIExportSchema>

export const TENANCY_SCHEMAS = {
  Workspace: WorkspaceSchema,
  WorkspaceType: WorkspaceTypeSchema,
} as const

export const APIS_SCHEMAS = {
  APIBinding: APIBindingSchema,
  APIExport: APIExportSchema,
} as const
