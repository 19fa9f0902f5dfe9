/**
 * zod schemas and types of the edge API `edge.kcp.io/v1alpha1` (KubeStellar 2023 PoC, v0.5):
 * EdgePlacement (what goes where), SinglePlacementSlice (resolved destinations, top-level
 * `destinations`), SyncerConfig (what a mailbox's syncer syncs) and Customizer (top-level
 * `replacements`); SyncTarget and Location (inventory) are in edge-inventory.ts, Summarizer,
 * StatusSummary and the EdgePlacement's `status.summary` in edge-summary.ts. Field names follow
 * shared/reference/kubestellar-api.md §2; every kind and field has a description, which
 * `kubectl explain` prints. Objects are not strict here: unknown fields are found by the
 * validator from the JSON schema derived from these, so that Strict/Warn/Ignore can differ.
 */
import { z } from 'zod'
import { LocationSchema, SyncTargetSchema } from './edge-inventory.ts'
import { PlacementSummarySchema, StatusSummarySchema, SummarizerSchema } from './edge-summary.ts'
import { kindObject } from './kind-object.ts'
import { ConditionSchema, LabelSelectorSchema } from './meta.ts'
import {
  PlacementPreviewSchema,
  unselectedLocationCountSchema,
  unselectedLocationsSchema,
} from './placement-preview.ts'

export const EDGE_API_VERSION = 'edge.kcp.io/v1alpha1'

const int32 = () => z.int32()
const strings = () => z.array(z.string())
const time = () => z.string().describe('An RFC 3339 timestamp.')
const group = () => z.string().optional().describe('API group; empty is the core group.')

// ---- EdgePlacement ----
export const NonNamespacedObjectReferenceSetSchema = z.object({
  apiGroup: group(),
  resources: strings().optional().describe('Lowercase plural resources; "*" means all.'),
  resourceNames: strings().optional().describe('Object names; "*" means all.'),
  labelSelectors: z
    .array(LabelSelectorSchema)
    .optional()
    .describe('Objects whose labels match any of these are selected too, whatever their name.'),
})
export const UpsyncSetSchema = z.object({
  apiGroup: z.string().optional().describe('API group; empty is the core group, "*" any group.'),
  resources: strings().optional().describe('Lowercase plural resources; "*" means all.'),
  namespaces: strings()
    .optional()
    .describe('Namespaces at the edge ("*": all); not consulted for cluster-scoped objects.'),
  names: strings().optional().describe('Object names; "*" means all.'),
})
export type UpsyncSet = z.infer<typeof UpsyncSetSchema>
export const EdgePlacementSpecSchema = z.object({
  locationSelectors: z
    .array(LabelSelectorSchema)
    .optional()
    .describe('A Location matches if any selector does.'),
  namespaceSelector: LabelSelectorSchema.optional().describe(
    'Namespaces whose contents go to the edge, by their labels; absent or empty: every namespace.'
  ),
  nonNamespacedObjects: z
    .array(NonNamespacedObjectReferenceSetSchema)
    .optional()
    .describe(
      'Cluster-scoped objects to send (a Namespace with its labels, a CRD, a ClusterRole...): ' +
        'group and resource listed, and name listed or labels matched. Empty lists match nothing.'
    ),
  upsync: z
    .array(UpsyncSetSchema)
    .optional()
    .describe(
      'Objects made at the edge to copy back to the mailbox; an object matching any set is. ' +
        'Empty lists match nothing.'
    ),
})
/**
 * Each field has one writer, a server-side apply to /status with a field manager per step
 * (docs/ARCHITECTURE.md, "Who writes EdgePlacement.status"): the list markers say how their
 * fields are owned — conditions one by one (a map list keyed by type), the summary and the
 * unselected Locations whole. `preview` is no stored field: the hub adds it to the answer of a
 * dry run and drops it from every write (lib/hub/placement-hooks.ts).
 */
export const EdgePlacementStatusSchema = z.object({
  specGeneration: int32()
    .optional()
    .describe('The metadata.generation the where step last resolved. Written by the where step.'),
  matchingLocationCount: int32()
    .optional()
    .describe(
      'How many Locations (of synctargets, not being deleted) a locationSelector matches. ' +
        'Written by the where step.'
    ),
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
    .describe(
      'Translated (by the translate step: False names what cannot be sent) and Ready (by the ' +
        'summarize step: True once every selected object is ready at every destination).'
    )
    .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] }),
  summary: PlacementSummarySchema.optional()
    .describe(
      'Where each selected object stands at the destinations, counted; the broken copies, ' +
        'listed. Written by the summarize step (replaced whole).'
    )
    .meta({ 'x-kubernetes-map-type': 'atomic' }),
  preview: PlacementPreviewSchema.optional().describe(
    "Only in a server dry run's answer; never stored (a write carrying it has it dropped)."
  ),
})
export const EdgePlacementSchema = kindObject(
  'EdgePlacement',
  'Sends what it selects in its workload space (whole namespaces, chosen cluster-scoped ' +
    'objects) to every edge of every Location its locationSelectors match, and says in its ' +
    'status how far that got; objects made at the edge may come back (upsync).',
  {
    spec: EdgePlacementSpecSchema.optional().describe('What goes where.'),
    status: EdgePlacementStatusSchema.optional().describe(
      'Where it goes and how far it got, written by the where, translate and summarize steps.'
    ),
  }
)
export type EdgePlacement = z.infer<typeof EdgePlacementSchema>

// ---- SinglePlacementSlice ----
export const SinglePlacementSchema = z.object({
  cluster: z.string().describe('Logical-cluster id of the inventory space.'),
  locationName: z.string().describe('The Location matched, in that space.'),
  syncTargetName: z.string().describe('A SyncTarget the Location selects, in that space.'),
  syncTargetUID: z.string().optional().describe("That SyncTarget's uid: its mailbox's identity."),
})
export type SinglePlacement = z.infer<typeof SinglePlacementSchema>
export const SinglePlacementSliceSchema = kindObject(
  'SinglePlacementSlice',
  "An EdgePlacement's resolved destinations, one per (Location, SyncTarget) pair, written by " +
    'the where step in the same space and owned by the placement; large results span several.',
  {
    destinations: z
      .array(SinglePlacementSchema)
      .optional()
      .describe('The destinations in this slice.'),
  }
)
export type SinglePlacementSlice = z.infer<typeof SinglePlacementSliceSchema>

// ---- SyncerConfig ----
const NamespaceScopeResourceSchema = z.object({
  group: z.string().describe('API group; empty is the core group.'),
  resource: z.string().describe('Lowercase plural resource.'),
  apiVersion: z.string().describe('The version only, e.g. v1.'),
})
export const SyncerConfigSpecSchema = z.object({
  namespaceScope: z
    .object({
      namespaces: strings().optional().describe('Namespaces whose contents go to the edge.'),
      resources: z
        .array(NamespaceScopeResourceSchema)
        .optional()
        .describe('The namespaced resources that go, in each of those namespaces.'),
    })
    .optional()
    .describe('Namespaced objects to send: every object of these resources in these namespaces.'),
  namespacedObjects: z
    .array(
      NamespaceScopeResourceSchema.extend({
        objectsByNamespace: z
          .array(
            z.object({
              namespace: z.string().describe('A namespace.'),
              names: strings().optional().describe('Object names in it.'),
            })
          )
          .optional()
          .describe('The objects, per namespace.'),
      })
    )
    .optional()
    .describe('Single namespaced objects to send, by resource, namespace and name.'),
  clusterScope: z
    .array(
      NamespaceScopeResourceSchema.extend({
        objects: strings().optional().describe('Omitted means all objects; empty means none.'),
      })
    )
    .optional()
    .describe('Cluster-scoped objects to send, by resource and name.'),
  upsync: z
    .array(UpsyncSetSchema)
    .optional()
    .describe("What the edge copies back: the union of its placements' upsync sets."),
})
export const SyncerConfigSchema = kindObject(
  'SyncerConfig',
  "What one edge syncs: the mailbox's SyncerConfig the-one, made by the translate step from " +
    'every EdgePlacement that reaches that edge, and read by its agent.',
  {
    spec: SyncerConfigSpecSchema.optional().describe('What to downsync and upsync.'),
    status: z
      .object({
        lastSyncerHeartbeatTime: time()
          .optional()
          .describe("Not written: an edge's heartbeats are on its SyncTarget."),
      })
      .optional()
      .describe('Kept from KubeStellar; edgeplane writes nothing here.'),
  }
)
export type SyncerConfig = z.infer<typeof SyncerConfigSchema>

// ---- Customizer ----
export const ReplacementSchema = z.object({
  path: z
    .string()
    .refine((p) => p.startsWith('$'), { message: 'must be a JSONPath starting with "$"' })
    .describe('JSONPath (KubeStellar subset) of the place(s) to set: $.spec.replicas.'),
  value: z.string().describe("JSON text of the value to put there: '3', '\"env is %(env)\"'."),
})
export const CustomizerSchema = kindObject(
  'Customizer',
  'Changes made to the copy of an object for each destination: objects annotated ' +
    'edge.kcp.io/customizer: <name> (this namespace) or <namespace>/<name> get its replacements. ' +
    'Annotated edge.kcp.io/expand-parameters: "true", its paths and values first have %(name) ' +
    "replaced by the destination Location's label or annotation.",
  {
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
      })
      .describe('Applied in order, each path unique.'),
  }
)
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
