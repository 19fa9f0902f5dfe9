/**
 * `POST /ui/api/preview?space=<path>`: what an EdgePlacement would do in the space — the same
 * preview a server dry run of `kubectl create` answers in `status.preview`
 * (lib/placement/preview.ts), without writing anything. The body is JSON or YAML (by its
 * Content-Type, through the hub's own body reader: its size limit, its YAML decoder), and is an
 * EdgePlacement manifest as one would apply it, `{"spec": ...}`, or the spec alone: what a person
 * pastes from a manifest works. The spec is decoded by the EdgePlacement schema; one that does not
 * decode is a 400. The preview names inventory spaces by id (`cluster`); each item that does also
 * gets the space's path (`inventory`), which is what the page shows.
 */
import { decodeObject } from '../../lib/apis/decode.ts'
import { EdgePlacementSchema } from '../../lib/apis/edge-v1alpha1.ts'
import { badRequest } from '../../lib/errors.ts'
import type { Space } from '../../lib/hub/spaces.ts'
import { previewDepsOf, previewPlacement } from '../../lib/placement/preview.ts'
import { readObjectBody } from '../api/body.ts'
import type { View } from './view.ts'

const SHAPES =
  'the preview body must be an EdgePlacement, {"spec": {...}} or an EdgePlacement spec (YAML or JSON)'

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** The spec a preview body gives, in any of its three shapes. */
export function specOfBody(body: unknown): Record<string, unknown> {
  if (!isObject(body)) throw badRequest(SHAPES)
  const manifest = 'kind' in body || 'apiVersion' in body
  if (manifest && body.kind !== 'EdgePlacement')
    throw badRequest(`a preview takes an EdgePlacement, not ${String(body.kind ?? 'an object')}`)
  const wrapped = manifest || Object.keys(body).every((k) => ['spec', 'metadata'].includes(k))
  const spec = wrapped ? body.spec : body
  if (!isObject(spec)) throw badRequest(SHAPES)
  return spec
}

type WithCluster = { cluster: string }

export async function previewOf(view: View, space: Space, req: Request) {
  const spec = specOfBody(await readObjectBody(req))
  const decoded = decodeObject(EdgePlacementSchema, {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'EdgePlacement',
    metadata: { name: 'preview' },
    spec,
  })
  if (!decoded.ok)
    throw badRequest(
      `not an EdgePlacement spec: ${decoded.problem.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`
    )
  const preview = await previewPlacement(
    previewDepsOf(view.hub, view.client),
    space.id,
    decoded.value
  )
  const named = <T extends WithCluster>(items: readonly T[]) =>
    Promise.all(items.map(async (it) => ({ ...it, inventory: await view.pathOf(it.cluster) })))
  const [locations, destinations, unselected] = await Promise.all([
    named(preview.locations.items),
    named(preview.destinations.items),
    named(preview.unselectedLocations ?? []),
  ])
  return {
    preview: {
      ...preview,
      locations: { ...preview.locations, items: locations },
      destinations: { ...preview.destinations, items: destinations },
      ...(preview.unselectedLocations ? { unselectedLocations: unselected } : {}),
    },
  }
}
