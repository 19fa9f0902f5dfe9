/**
 * `POST /ui/api/preview?space=<path>`, body `{"spec": <EdgePlacement spec>}`: what an
 * EdgePlacement with that spec would do in the space — the same preview a server dry run of
 * `kubectl create` answers in `status.preview` (lib/placement/preview.ts), without writing
 * anything. The spec is decoded by the EdgePlacement schema; one that does not decode is a 400.
 */
import { z } from 'zod'
import { decodeObject } from '../../lib/apis/decode.ts'
import { EdgePlacementSchema } from '../../lib/apis/edge-v1alpha1.ts'
import { badRequest } from '../../lib/errors.ts'
import type { Space } from '../../lib/hub/spaces.ts'

import { previewDepsOf, previewPlacement } from '../../lib/placement/preview.ts'

import { readObjectBody } from '../api/body.ts'
import type { View } from './view.ts'

const BodySchema = z.object({ spec: z.record(z.string(), z.unknown()) })

export async function previewOf(view: View, space: Space, req: Request) {
  // The hub's own body reader: its size limit (413), media types (415) and JSON errors (400).
  const parsed = BodySchema.safeParse(await readObjectBody(req))
  if (!parsed.success)
    throw badRequest('the preview body must be {"spec": {...EdgePlacement spec}}')
  const decoded = decodeObject(EdgePlacementSchema, {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'EdgePlacement',
    metadata: { name: 'preview' },
    spec: parsed.data.spec,
  })
  if (!decoded.ok)
    throw badRequest(
      `not an EdgePlacement spec: ${decoded.problem.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`
    )
  return {
    preview: await previewPlacement(previewDepsOf(view.hub, view.client), space.id, decoded.value),
  }
}
