/**
 * zod schemas of status summarization (reference §5.4): the summary the summarize step keeps in an
 * EdgePlacement's `status.summary` (destinations matched and reporting, per selected object the
 * destinations where it is pending, applied, ready, failed, removing or stale, a bounded list of
 * broken copies, the upsynced objects, the Rollouts whose revisions the copies carry), and the two namespaced kinds of user-specified summaries —
 * `Summarizer` (which placed objects, what to group by: a JSONPath over the reported object or a
 * label of the destination's Location, what to aggregate: count, sum, min, max over a JSONPath,
 * a staleness threshold) and `StatusSummary` (its results, same name and namespace, written by the
 * step). Group keys and aggregates are lists of {name, value} as in the draft API of KubeStellar
 * PR #567; a value is absent when there is none (a path selecting nothing, a min of no values).
 */
import { z } from 'zod'
import { JsonPathError, parseJsonPath } from '../jsonpath/parse.ts'
import { qualifiedNameErrors } from '../kube/names.ts'
import { kindObject } from './kind-object.ts'
import { LabelSelectorSchema } from './meta.ts'

export const MAX_BROKEN = 20
export const MAX_SUMMARY_OBJECTS = 200
export const MAX_UPSYNC_LISTED = 20
export const MAX_GROUPS = 100
export const MAX_ROLLOUTS_LISTED = 20
export const MAX_ROLLOUT_REVISIONS = 10

const count = () => z.int32().min(0)

const ObjectKeySchema = z.object({
  group: z.string().describe("API group; '' is the core group."),
  resource: z.string().describe('Lowercase plural resource.'),
  namespace: z.string().optional().describe('Absent for a cluster-scoped object.'),
  name: z.string().describe('The object.'),
})
/** Where a copy is: the destination's inventory space, Location and SyncTarget. */
const DESTINATION = {
  cluster: z.string().describe('Logical-cluster id of the inventory space.'),
  syncTarget: z.string().describe('The SyncTarget (edge).'),
}

export const CopyCountsSchema = z.object({
  pending: count().describe(
    'Not in the mailbox yet, not reported, or reported for an older generation.'
  ),
  applied: count().describe('Reported for the current generation, not ready yet.'),
  ready: count().describe('Reported for the current generation and ready for its kind.'),
  failed: count().describe('A problem reported (or a failed state of the kind).'),
  removing: count().describe('Leaving the destination, not confirmed gone yet.'),
  stale: count().describe('At destinations whose agent has not sent a heartbeat recently.'),
})
export type CopyCounts = z.infer<typeof CopyCountsSchema>

export const PlacementSummarySchema = z.object({
  destinations: count().describe('Destinations the placement matches.'),
  reportingDestinations: count().describe('Destinations whose agent sent a heartbeat recently.'),
  staleDestinations: count().describe('Destinations whose agent did not (or never did).'),
  objectCount: count().describe('Objects the placement selects.'),
  totals: CopyCountsSchema.describe('Per state, the (object, destination) pairs.'),
  objects: z
    .array(ObjectKeySchema.extend(CopyCountsSchema.shape))
    .max(MAX_SUMMARY_OBJECTS)
    .describe(`Per selected object (the first ${MAX_SUMMARY_OBJECTS}), its destinations by state.`),
  brokenCount: count().describe('Failed and stale (object, destination) pairs in all.'),
  broken: z
    .array(
      ObjectKeySchema.extend({
        ...DESTINATION,
        location: z.string().describe('The Location.'),
        reason: z
          .string()
          .describe('ApplyFailed, ForeignObject, ProgressDeadlineExceeded, Stale...'),
        message: z.string().optional().describe("The edge's own words, when it sent some."),
      })
    )
    .max(MAX_BROKEN)
    .describe(`The first ${MAX_BROKEN} broken pairs, failed before stale, each with why.`),
  upsync: z
    .object({
      count: count().describe('Upsynced objects the placement selects, over its destinations.'),
      destinations: count().describe('Destinations that upsynced at least one.'),
      objects: z
        .array(ObjectKeySchema.extend(DESTINATION))
        .max(MAX_UPSYNC_LISTED)
        .describe(`The first ${MAX_UPSYNC_LISTED} of them, with the edge each came from.`),
    })
    .optional()
    .describe('What the destinations upsynced, for a placement with upsync sets.'),
  rollouts: z
    .array(
      z.object({
        name: z.string().describe('The Rollout.'),
        revisions: z
          .array(
            z.object({
              revision: z.int32().min(1).describe('A revision of the Rollout.'),
              destinations: count().describe(
                "Destinations where it is the lowest revision among the Rollout's copies."
              ),
            })
          )
          .max(MAX_ROLLOUT_REVISIONS)
          .describe(
            `The revisions the destinations are at, lowest first (the first ${MAX_ROLLOUT_REVISIONS}).`
          ),
      })
    )
    .max(MAX_ROLLOUTS_LISTED)
    .optional()
    .describe(
      `The Rollouts (the first ${MAX_ROLLOUTS_LISTED} by name) whose revisions the copies carry, with how many destinations are at each: where each destination stands for them is kept for their gates.`
    ),
})
export type PlacementSummary = z.infer<typeof PlacementSummarySchema>

const JsonPathSchema = z.string().superRefine((text, ctx) => {
  try {
    parseJsonPath(text)
  } catch (e) {
    if (!(e instanceof JsonPathError)) throw e
    ctx.addIssue({ code: 'custom', message: e.message })
  }
})

const EntryName = z
  .string()
  .regex(
    /^[A-Za-z_][A-Za-z0-9_.-]{0,62}$/,
    'must be a letter or "_" then up to 62 of [A-Za-z0-9_.-]'
  )

function uniqueNames(list: readonly { name: string }[] | undefined, ctx: z.RefinementCtx) {
  const seen = new Set<string>()
  list?.forEach((e, i) => {
    if (seen.has(e.name)) {
      ctx.addIssue({
        code: 'custom',
        path: [i, 'name'],
        message: `Duplicate value: ${JSON.stringify(e.name)}`,
        params: { reason: 'FieldValueDuplicate' },
      })
    }
    seen.add(e.name)
  })
}

export const GroupBySchema = z
  .object({
    name: EntryName.describe("The key's name in the results (groupedBy)."),
    jsonPath: JsonPathSchema.optional().describe('JSONPath over the reported object.'),
    locationLabel: z.string().optional().describe("A label of the destination's Location."),
  })
  .superRefine((g, ctx) => {
    if ((g.jsonPath === undefined) === (g.locationLabel === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['jsonPath'],
        message: 'Invalid value: exactly one of jsonPath and locationLabel must be given',
      })
    }
    for (const m of g.locationLabel === undefined ? [] : qualifiedNameErrors(g.locationLabel)) {
      ctx.addIssue({ code: 'custom', path: ['locationLabel'], message: m })
    }
  })

export const AGGREGATION_TYPES = ['Count', 'Sum', 'Min', 'Max'] as const

export const AggregationSchema = z
  .object({
    name: EntryName.describe("The aggregate's name in the results (aggregates)."),
    type: z.enum(AGGREGATION_TYPES).describe('Count, Sum, Min or Max.'),
    jsonPath: JsonPathSchema.optional().describe(
      'JSONPath over the reported object; required for Sum, Min, Max; for Count, counts only copies where it selects a value.'
    ),
  })
  .superRefine((a, ctx) => {
    if (a.type !== 'Count' && a.jsonPath === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['jsonPath'],
        message: `Required value: must be specified for type ${a.type}`,
        params: { reason: 'FieldValueRequired' },
      })
    }
  })

export const SummarizerSpecSchema = z.object({
  subject: z
    .object({
      group: z.string().optional().describe("API group; '' is the core group; absent: any."),
      resource: z.string().optional().describe('Lowercase plural resource; absent: any.'),
      namespace: z.string().optional().describe('Namespace; absent: any.'),
      name: z.string().optional().describe('Object name; absent: any.'),
      labelSelector: LabelSelectorSchema.optional().describe("The objects' labels; absent: any."),
    })
    .optional()
    .describe('Which placed objects of this space to summarize; absent: all of them.'),
  groupBy: z
    .array(GroupBySchema)
    .max(8)
    .optional()
    .superRefine(uniqueNames)
    .describe('Up to 8 keys the copies are grouped by; absent: one group of all.'),
  aggregations: z
    .array(AggregationSchema)
    .min(1)
    .max(16)
    .superRefine(uniqueNames)
    .describe('1 to 16 values computed over each group.'),
  stalenessThresholdSeconds: z
    .int32()
    .min(1)
    .optional()
    .describe(
      'Reports whose agent sent no heartbeat for this long are counted apart (default: the ' +
        "hub's staleness threshold, EDGE_STALE_AFTER_SECONDS, 180 unless configured)."
    ),
})
export type SummarizerSpec = z.infer<typeof SummarizerSpecSchema>

export const SummarizerSchema = kindObject(
  'Summarizer',
  'A summary you define of how the copies of placed objects stand at their edges: which ' +
    'objects, grouped by what, with which counts, sums, minimums or maximums. The summarize step ' +
    'writes the results to the StatusSummary of the same name and namespace.',
  { spec: SummarizerSpecSchema.describe('What to summarize and how.') }
)
export type Summarizer = z.infer<typeof SummarizerSchema>

const NamedValue = <T extends z.ZodType>(value: T, of: string) =>
  z.object({
    name: z.string().describe(`The ${of}'s name in the Summarizer.`),
    value: value.optional().describe('Absent when there is none (nothing selected, no values).'),
  })

export const SummaryResultSchema = z.object({
  summarizerGeneration: z
    .int()
    .min(0)
    .describe("The Summarizer's metadata.generation these results are for."),
  objects: count().describe('Placed objects the Summarizer selects.'),
  copies: count().describe('Their (object, destination) pairs.'),
  reported: count().describe('Pairs with a current report from a live agent: the grouped ones.'),
  pending: count().describe('Pairs not reported yet for the current spec.'),
  failed: count().describe('Pairs with a problem reported.'),
  stale: count().describe('Pairs left out: no heartbeat within the staleness threshold.'),
  groups: z
    .array(
      z.object({
        groupedBy: z
          .array(NamedValue(z.string(), 'key'))
          .describe("The group's key values, in the Summarizer's groupBy order."),
        count: count().describe('Reported pairs in the group.'),
        aggregates: z
          .array(NamedValue(z.number(), 'aggregation'))
          .describe("The aggregations' values over the group."),
      })
    )
    .max(MAX_GROUPS)
    .describe(`One entry per group, the first ${MAX_GROUPS} by key.`),
  groupsOmitted: count().optional().describe(`Groups past the first ${MAX_GROUPS}, not listed.`),
})
export type SummaryResult = z.infer<typeof SummaryResultSchema>

export const StatusSummarySchema = kindObject(
  'StatusSummary',
  'The results of the Summarizer of the same name and namespace, owned by it and written by ' +
    'the summarize step.',
  { summary: SummaryResultSchema.optional().describe("The Summarizer's results.") }
)
export type StatusSummary = z.infer<typeof StatusSummarySchema>
