/**
 * zod schemas and types of the edge API `edge.kcp.io/v1alpha1` (KubeStellar 2023 PoC, v0.5):
 * SyncTarget and Location (inventory), EdgePlacement (what goes where), SinglePlacementSlice
 * (resolved destinations, top-level `destinations`), SyncerConfig (what a mailbox's syncer syncs)
 * and Customizer (top-level `replacements`); Summarizer, StatusSummary and the EdgePlacement's
 * `status.summary` are in edge-summary.ts. Field names follow shared/reference/kubestellar-api.md
 * §2. Objects are not strict here: unknown fields are found by the validator from the JSON schema
 * derived from these, so that Strict/Warn/Ignore can differ.
 */
import { z } from 'zod'
import { PlacementSummarySchema, StatusSummarySchema, SummarizerSchema } from './edge-summary.ts'
import {
  ConditionSchema,
  GroupVersionResourceSchema,
  LabelSelectorSchema,
  ObjectMetaSchema,
  QuantitySchema,
} from './meta.ts'
import {
  PlacementPreviewSchema,
  unselectedLocationCountSchema,
  unselectedLocationsSchema,
} from './placement-preview.ts'

export const EDGE_API_VERSION = 'edge.kcp.io/v1alpha1'

const objectOf = <K extends string, S extends z.ZodRawShape>(kind: K, shape: S) =>
  z.object({
    apiVersion: z.string(),
    kind: z.literal(kind),
    metadata: ObjectMetaSchema,
    ...shape,
  })

const int32 = () => z.int32()
const strings = () => z.array(z.string())
const time = () => z.string().describe('An RFC 3339 timestamp.')

// ---- SyncTarget ----
export const SyncTargetSpecSchema = z.object({
  unschedulable: z.boolean().optional(),
  evictAfter: time().optional(),
  supportedAPIExports: z
    .array(z.object({ path: z.string().optional(), export: z.string() }))
    .optional(),
  cells: z.record(z.string(), z.string()).optional(),
})
export const SyncTargetStatusSchema = z.object({
  allocatable: z.record(z.string(), QuantitySchema).optional(),
  capacity: z.record(z.string(), QuantitySchema).optional(),
  conditions: z
    .array(ConditionSchema)
    .optional()
    .describe(
      "Ready (by the center from its agent's heartbeats: True, reason Heartbeating, while the " +
        'agent was heard within the staleness threshold, 3 minutes by default; Unknown, reason ' +
        'Stale, once silent that long, or NeverSeen before any heartbeat) and Inventory (by the ' +
        'mailbox step, only while False: the space is no inventory space and the SyncTarget ' +
        'makes no edge).'
    )
    .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] }),
  agentVersion: z
    .string()
    .optional()
    .describe("The edge agent's version, as its last heartbeat told it (written with Ready)."),
  syncedResources: z
    .array(
      z.object({
        group: z.string().optional(),
        resource: z.string(),
        versions: strings().optional(),
        identityHash: z.string().optional(),
        state: z.enum(['Pending', 'Accepted', 'Incompatible']).optional(),
      })
    )
    .optional(),
  lastSyncerHeartbeatTime: time()
    .optional()
    .describe(
      'When the center last stored a heartbeat of the agent: when it came back and then once ' +
        "every 5 minutes while it beats (as a Node condition's lastHeartbeatTime), so up to " +
        'that old for a live edge. Whether the edge is live is the Ready condition.'
    ),
  virtualWorkspaces: z
    .array(z.object({ syncerURL: z.string().optional(), upsyncerURL: z.string().optional() }))
    .optional(),
})
export const SyncTargetSchema = objectOf('SyncTarget', {
  spec: SyncTargetSpecSchema.optional(),
  status: SyncTargetStatusSchema.optional(),
})
export type SyncTarget = z.infer<typeof SyncTargetSchema>

// ---- Location ----
export const LocationSpecSchema = z.object({
  resource: GroupVersionResourceSchema.describe(
    'The kind of instances: edge.kcp.io/v1alpha1 synctargets.'
  ),
  instanceSelector: LabelSelectorSchema.optional(),
  description: z.string().optional(),
  availableSelectorLabels: z
    .array(z.object({ key: z.string(), values: strings(), description: z.string().optional() }))
    .optional(),
})
export const LocationSchema = objectOf('Location', {
  spec: LocationSpecSchema,
  status: z
    .object({
      instances: z.int32().min(0).optional(),
      availableInstances: z.int32().min(0).optional(),
      conditions: z
        .array(ConditionSchema)
        .optional()
        .describe(
          'Inventory (by the mailbox step, only while False: the space is no inventory space and ' +
            'no placement can select the Location).'
        )
        .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] }),
    })
    .optional(),
})
export type Location = z.infer<typeof LocationSchema>

// ---- EdgePlacement ----
export const NonNamespacedObjectReferenceSetSchema = z.object({
  apiGroup: z.string().optional().describe('API group; empty is the core group.'),
  resources: strings().optional().describe('Lowercase plural resources; "*" means all.'),
  resourceNames: strings().optional().describe('Object names; "*" means all.'),
  labelSelectors: z.array(LabelSelectorSchema).optional(),
})
export const UpsyncSetSchema = z.object({
  apiGroup: z.string().optional(),
  resources: strings().optional(),
  namespaces: strings().optional(),
  names: strings().optional(),
})
export type UpsyncSet = z.infer<typeof UpsyncSetSchema>
export const EdgePlacementSpecSchema = z.object({
  locationSelectors: z
    .array(LabelSelectorSchema)
    .optional()
    .describe('A Location matches if any selector does.'),
  namespaceSelector: LabelSelectorSchema.optional().describe(
    'Namespaces whose contents go to the edge.'
  ),
  nonNamespacedObjects: z.array(NonNamespacedObjectReferenceSetSchema).optional(),
  upsync: z.array(UpsyncSetSchema).optional(),
})
/**
 * Each field has one writer, a server-side apply to /status with a field manager per step
 * (docs/ARCHITECTURE.md, "Who writes EdgePlacement.status"): the list markers say how their
 * fields are owned — conditions one by one (a map list keyed by type), the summary and the
 * unselected Locations whole. `preview` is no stored field: the hub adds it to the answer of a
 * dry run and drops it from every write (lib/hub/placement-hooks.ts).
 */
export const EdgePlacementStatusSchema = z.object({
  specGeneration: int32().optional().describe('Written by the where step.'),
  matchingLocationCount: int32().optional().describe('Written by the where step.'),
  unselectedLocationCount: unselectedLocationCountSchema()
    .optional()
    .describe('How many Locations the placement does not select. Written by the where step.'),
  unselectedLocations: unselectedLocationsSchema()
    .optional()
    .describe(
      'The first 20 Locations the placement does not select, by (cluster, name), each with ' +
        'the reason. Written by the where step (replaced whole).'
    ),
  conditions: z
    .array(ConditionSchema)
    .optional()
    .describe('Translated (by the translate step) and Ready (by the summarize step).')
    .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] }),
  summary: PlacementSummarySchema.optional()
    .describe('Written by the summarize step.')
    .meta({ 'x-kubernetes-map-type': 'atomic' }),
  preview: PlacementPreviewSchema.optional().describe(
    "Only in a server dry run's answer; never stored (a write carrying it has it dropped)."
  ),
})
export const EdgePlacementSchema = objectOf('EdgePlacement', {
  spec: EdgePlacementSpecSchema.optional(),
  status: EdgePlacementStatusSchema.optional(),
})
export type EdgePlacement = z.infer<typeof EdgePlacementSchema>

// ---- SinglePlacementSlice ----
export const SinglePlacementSchema = z.object({
  cluster: z.string().describe('Logical-cluster id of the inventory space.'),
  locationName: z.string(),
  syncTargetName: z.string(),
  syncTargetUID: z.string().optional(),
})
export type SinglePlacement = z.infer<typeof SinglePlacementSchema>
export const SinglePlacementSliceSchema = objectOf('SinglePlacementSlice', {
  destinations: z.array(SinglePlacementSchema).optional(),
})
export type SinglePlacementSlice = z.infer<typeof SinglePlacementSliceSchema>

// ---- SyncerConfig ----
const NamespaceScopeResourceSchema = z.object({
  group: z.string(),
  resource: z.string(),
  apiVersion: z.string().describe('The version only, e.g. v1.'),
})
export const SyncerConfigSpecSchema = z.object({
  namespaceScope: z
    .object({
      namespaces: strings().optional(),
      resources: z.array(NamespaceScopeResourceSchema).optional(),
    })
    .optional(),
  namespacedObjects: z
    .array(
      NamespaceScopeResourceSchema.extend({
        objectsByNamespace: z
          .array(z.object({ namespace: z.string(), names: strings().optional() }))
          .optional(),
      })
    )
    .optional(),
  clusterScope: z
    .array(
      NamespaceScopeResourceSchema.extend({
        objects: strings().optional().describe('Omitted means all objects; empty means none.'),
      })
    )
    .optional(),
  upsync: z.array(UpsyncSetSchema).optional(),
})
export const SyncerConfigSchema = objectOf('SyncerConfig', {
  spec: SyncerConfigSpecSchema.optional(),
  status: z.object({ lastSyncerHeartbeatTime: time().optional() }).optional(),
})
export type SyncerConfig = z.infer<typeof SyncerConfigSchema>

// ---- Customizer ----
export const ReplacementSchema = z.object({
  path: z
    .string()
    .refine((p) => p.startsWith('$'), { message: 'must be a JSONPath starting with "$"' })
    .describe('JSONPath (KubeStellar subset) of the place(s) to set.'),
  value: z.string().describe('JSON text of the value to put there.'),
})
export const CustomizerSchema = objectOf('Customizer', {
  replacements: z
    .array(ReplacementSchema)
    .optional()
    .superRefine((list, ctx) => {
      const seen = new Set<string>()
      list?.forEach((r, i) => {
        if (seen.has(r.path)) {
          ctx.addIssue({
            code: 'custom',
            path: [i, 'path'],
            message: `Duplicate value: ${JSON.stringify(r.path)}`,
            params: { reason: 'FieldValueDuplicate' },
          })
        }
        seen.add(r.path)
      })
    }),
})
export type Customizer = z.infer<typeof CustomizerSchema>

/** The zod schema of each edge kind, by kind. */
export const EDGE_SCHEMAS = {
  SyncTarget: SyncTargetSchema,
  Location: LocationSchema,
  EdgePlacement: EdgePlacementSchema,
  SinglePlacementSlice: SinglePlacementSliceSchema,
  SyncerConfig: SyncerConfigSchema,
  Customizer: CustomizerSchema,
  Summarizer: SummarizerSchema,
  StatusSummary: StatusSummarySchema,
} as const
