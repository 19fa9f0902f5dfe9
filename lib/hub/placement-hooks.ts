/**
 * What the hub does for EdgePlacements (`edge.kcp.io` edgeplacements): the answer of a server dry
 * run (create, update or patch with dryRun; kubectl's `--dry-run=server`) carries
 * `status.preview`, what the placement would do now (lib/placement/preview.ts: the Locations and
 * SyncTargets it would select, the objects it would send, the Locations it would not select and
 * why), computed by reads only. The preview is never stored: every write drops it from the object
 * (`resetFields`), whatever the subresource — the field is in the schema (so a dry run's answer
 * validates and `kubectl explain` shows it), and kube treats such a server-owned field by resetting
 * it in the strategy's PrepareForCreate/PrepareForUpdate, silently and unowned (server-side apply's
 * reset fields), rather than by rejecting the write; so does the hub.
 */
import { decodeObject } from '../apis/decode.ts'
import { EdgePlacementSchema } from '../apis/edge-v1alpha1.ts'
import { EDGE_PLACEMENTS } from '../apis/gvr.ts'
import type { JsonObject, JsonValue, KubeObject } from '../kube/types.ts'
import { previewDepsOf, previewPlacement } from '../placement/preview.ts'
import type { HubDeps } from './deps.ts'
import type { HookContext, KindHookRegistry } from './kind-hooks.ts'

const isRecord = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** The object (an EdgePlacement, a Rollout) without `status.preview` (itself when it has none). */
export function withoutPreview(obj: KubeObject): KubeObject {
  const status = obj.status as JsonValue | undefined
  if (!isRecord(status) || !Object.hasOwn(status, 'preview')) return obj
  const { preview: _dropped, ...rest } = status
  return { ...obj, status: rest }
}

/**
 * The dry run's answer: `obj` with `status.preview` (replacing any the request carried). An object
 * that does not decode as an EdgePlacement (validation let it through with unknown fields set
 * aside) is answered as it is.
 */
async function withPreview(ctx: HookContext<HubDeps>, obj: KubeObject): Promise<KubeObject> {
  const decoded = decodeObject(EdgePlacementSchema, withoutPreview(obj))
  if (!decoded.ok) return obj
  const preview = await previewPlacement(previewDepsOf(ctx.deps), ctx.space.id, decoded.value)
  const current = obj.status as JsonValue | undefined
  const status = isRecord(current) ? current : {}
  return { ...obj, status: { ...status, preview: preview as unknown as JsonValue } }
}

export function registerPlacementHooks(hooks: KindHookRegistry<HubDeps>): void {
  const { group, resource } = EDGE_PLACEMENTS
  hooks.register(group, resource, { dryRunAnswer: withPreview, resetFields: withoutPreview })
}
