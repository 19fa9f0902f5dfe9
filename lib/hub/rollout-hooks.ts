/**
 * What the hub does for Rollouts (`edge.kcp.io` rollouts), as for EdgePlacements
 * (placement-hooks.ts): the answer of a server dry run (create, update or patch with dryRun;
 * kubectl's `--dry-run=server`) carries `status.preview` — what the Rollout would govern and which
 * edges fall in which wave now (lib/rollout/preview.ts), computed by reads only — and every write
 * drops the field (`resetFields`), silently as kube resets a server-owned field.
 */
import { decodeObject } from '../apis/decode.ts'
import { RolloutSchema } from '../apis/edge-rollout.ts'
import { ROLLOUTS } from '../apis/gvr.ts'
import type { JsonValue, KubeObject } from '../kube/types.ts'
import { isJsonObject as isRecord } from '../patch/json-values.ts'
import { previewDepsOf } from '../placement/preview.ts'
import { previewRollout } from '../rollout/preview.ts'
import type { HubDeps } from './deps.ts'
import type { HookContext, KindHookRegistry } from './kind-hooks.ts'
import { withoutPreview } from './placement-hooks.ts'

/** The dry run's answer: `obj` with `status.preview`; one that does not decode as it is. */
async function withPreview(ctx: HookContext<HubDeps>, obj: KubeObject): Promise<KubeObject> {
  const bare = withoutPreview(obj)
  const decoded = decodeObject(RolloutSchema, bare)
  if (!decoded.ok) return obj
  const preview = await previewRollout(
    previewDepsOf(ctx.deps),
    ctx.space.id,
    bare,
    decoded.value.spec
  )
  const current = bare.status as JsonValue | undefined
  const status = isRecord(current) ? current : {}
  return { ...obj, status: { ...status, preview: preview as unknown as JsonValue } }
}

export function registerRolloutHooks(hooks: KindHookRegistry<HubDeps>): void {
  const { group, resource } = ROLLOUTS
  hooks.register(group, resource, { dryRunAnswer: withPreview, resetFields: withoutPreview })
}
