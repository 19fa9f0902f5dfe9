/**
 * zod schema of the preview a server dry run of a Rollout answers with (`status.preview`,
 * lib/rollout/preview.ts; never stored): the objects it would govern (an older Rollout's left
 * out, naming it), and per wave, in spec order, the edges that would fall in it now — the
 * destinations of its workload space's placements, each in the first wave whose selectors match
 * its Location — with, for a wave under `maxEdges`, how many would be in flight at once; and the
 * edges no wave takes. Every list is bounded: a count of all, and the first items in a stable
 * order.
 */
import { z } from 'zod'
import { atomic, bounded, count, MAX_PREVIEW_LISTED, ObjectRefSchema } from './placement-preview.ts'

const PreviewEdgeSchema = z.object({
  cluster: z.string().describe('Logical-cluster id of the inventory space.'),
  locationName: z.string().describe('The Location that puts it in the wave.'),
  syncTargetName: z.string().describe('The SyncTarget (edge).'),
  syncTargetUID: z.string().describe("The SyncTarget's uid."),
})
export type PreviewEdge = z.infer<typeof PreviewEdgeSchema>

const edges = (what: string) =>
  bounded(PreviewEdgeSchema, MAX_PREVIEW_LISTED, what, 'by (cluster, SyncTarget uid)')

const PreviewWaveSchema = z.object({
  name: z.string().describe('The wave.'),
  inFlight: count().describe(
    'How many of its edges a revision reaches at once (maxEdges of the wave; all without it).'
  ),
  approval: z.boolean().describe('Whether each revision waits for an approval of this wave.'),
  edges: edges('edges that would fall in this wave'),
})

export const RolloutPreviewSchema = z
  .object({
    governed: bounded(
      ObjectRefSchema,
      MAX_PREVIEW_LISTED,
      'objects of its workload space it would govern',
      'by (group, resource, namespace, name)'
    ),
    governedByOlder: z
      .array(
        z.object({
          name: z.string().describe('The older Rollout.'),
          count: count().describe('How many of the objects this one selects it governs.'),
        })
      )
      .max(MAX_PREVIEW_LISTED)
      .optional()
      .describe('Older Rollouts governing objects it selects, and how many (they keep them).')
      .meta(atomic),
    waves: z.array(PreviewWaveSchema).describe('Per wave, in spec order.').meta(atomic),
    unassigned: edges(
      'edges its objects reach that no wave takes (they keep the completed revision)'
    ),
  })
  .describe(
    'What the Rollout would govern and which edges fall in which wave now: only in the answer of ' +
      'a server dry run (create, update or patch with dryRun); never stored.'
  )
export type RolloutPreview = z.infer<typeof RolloutPreviewSchema>
