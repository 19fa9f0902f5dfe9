/**
 * zod schemas of what an EdgePlacement's status says about where it does and would go: the
 * Locations it does not select, each with a reason (`status.unselectedLocations`, written by the
 * where step, lib/placement/location-reasons.ts), and the preview a server dry run of an
 * EdgePlacement answers with (`status.preview`, lib/placement/preview.ts; never stored). Every
 * list is bounded: a count of all, and the first items in a stable order.
 */
import { z } from 'zod'

/** At most this many unselected Locations are listed (the count says how many there are). */
export const MAX_UNSELECTED_LISTED = 20
/** At most this many items in each of the preview's lists. */
export const MAX_PREVIEW_LISTED = 20
/** At most this many objects listed per destination in the preview. */
export const MAX_PREVIEW_OBJECTS_PER_DESTINATION = 5

export const count = () => z.int32().min(0)
export const atomic = { 'x-kubernetes-list-type': 'atomic' } as const

export const UNSELECTED_REASONS = [
  'SelectorMismatch',
  'LocationDeleting',
  'NotSyncTargets',
  'NoSyncTarget',
  'NoMailbox',
] as const

export const UnselectedReasonSchema = z
  .enum(UNSELECTED_REASONS)
  .describe(
    'SelectorMismatch: no locationSelector matches its labels. LocationDeleting: it is being ' +
      'deleted. NotSyncTargets: its spec.resource is not synctargets. NoSyncTarget: its ' +
      'instanceSelector selects no live SyncTarget in its space. NoMailbox: none of its ' +
      'SyncTargets has its mailbox yet.'
  )
export type UnselectedReason = z.infer<typeof UnselectedReasonSchema>

export const UnselectedLocationSchema = z.object({
  cluster: z.string().describe('Logical-cluster id of the inventory space holding the Location.'),
  name: z.string().describe('The Location.'),
  reason: UnselectedReasonSchema,
  message: z.string().describe('Why, for a person: for SelectorMismatch the term that failed.'),
})
export type UnselectedLocation = z.infer<typeof UnselectedLocationSchema>

export const unselectedLocationCountSchema = () =>
  count().describe('How many Locations the placement does not select.')

export const unselectedLocationsSchema = () =>
  z
    .array(UnselectedLocationSchema)
    .max(MAX_UNSELECTED_LISTED)
    .describe(
      `The first ${MAX_UNSELECTED_LISTED} Locations the placement does not select, by (cluster, name).`
    )
    .meta(atomic)

export const ObjectRefSchema = z.object({
  group: z.string().describe("API group; '' is the core group."),
  version: z.string().describe('The version the object is read at in its workload space.'),
  resource: z.string().describe('Lowercase plural resource.'),
  namespace: z.string().optional().describe('Absent for a cluster-scoped object.'),
  name: z.string().describe('The object.'),
})
export type PreviewObjectRef = z.infer<typeof ObjectRefSchema>

/** `{count, items}`: how many `what` in all, and the first `max` of them in `order`. */
export const bounded = <T extends z.ZodType>(item: T, max: number, what: string, order: string) =>
  z
    .object({
      count: count().describe(`How many ${what} in all.`),
      items: z.array(item).max(max).describe(`The first ${max} of them, ${order}.`).meta(atomic),
    })
    .describe(`The ${what}: how many, and the first ${max}.`)

const PreviewLocationSchema = z.object({
  cluster: z.string().describe('Logical-cluster id of the inventory space.'),
  name: z.string().describe('The Location.'),
})

const PreviewDestinationSchema = z.object({
  cluster: z.string().describe('Logical-cluster id of the inventory space.'),
  locationName: z.string().describe('The first of its Locations by name.'),
  syncTargetName: z.string().describe('The SyncTarget (edge).'),
  syncTargetUID: z.string().describe("The SyncTarget's uid."),
  mailbox: z.string().describe("The SyncTarget's mailbox (its space is root:espw:<mailbox>)."),
  objects: bounded(
    ObjectRefSchema,
    MAX_PREVIEW_OBJECTS_PER_DESTINATION,
    'objects this placement sends there (the Namespaces they need included)',
    'by (group, resource, namespace, name)'
  ),
})

const PreviewSkippedSchema = ObjectRefSchema.omit({ version: true }).extend({
  reason: z
    .string()
    .describe(
      'Unsupported, SystemInfrastructure, NotForEdge, BuiltinDefinition or NotGranted (a ' +
        'privileged resource no PlacementGrant of the space lists in spec.resources).'
    ),
})
export type PreviewSkipped = z.infer<typeof PreviewSkippedSchema>

export const PlacementPreviewSchema = z
  .object({
    locations: bounded(
      PreviewLocationSchema,
      MAX_PREVIEW_LISTED,
      'Locations it would select',
      'by (cluster, name)'
    ),
    destinations: bounded(
      PreviewDestinationSchema,
      MAX_PREVIEW_LISTED,
      'destinations (one per SyncTarget) its slices would list',
      'by (cluster, Location, SyncTarget)'
    ),
    objects: bounded(
      ObjectRefSchema,
      MAX_PREVIEW_LISTED,
      'objects of its workload space it would send',
      'by (group, resource, namespace, name)'
    ),
    skipped: bounded(
      PreviewSkippedSchema,
      MAX_PREVIEW_LISTED,
      'objects it reaches that are never sent',
      'by (group, resource, namespace, name), each with why'
    ),
    unselectedLocationCount: unselectedLocationCountSchema(),
    unselectedLocations: unselectedLocationsSchema().optional(),
  })
  .describe(
    'What the placement would do now: only in the answer of a server dry run (create, update or ' +
      'patch with dryRun); never stored.'
  )
export type PlacementPreview = z.infer<typeof PlacementPreviewSchema>
