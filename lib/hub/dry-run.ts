/**
 * Two kind hooks (kind-hooks.ts) every write goes through: `resetFields` drops the fields no
 * client may store before the object is validated (with their ownership, when server-side apply
 * already recorded it), and `dryRunAnswer` shapes what a dry run answers with, from the object it
 * would have stored (or the stored one, when the write changes nothing).
 */
import type { KubeObject } from '../kube/types.ts'
import type { HubDeps } from './deps.ts'
import type { WriteOptions } from './options.ts'
import { forgetFields } from './pruned-fields.ts'
import type { Target } from './target.ts'

/**
 * `obj` without the fields its kind resets; `fieldsPreset` when its managedFields were computed
 * with them (server-side apply), which then no longer own them.
 */
export function resetFields(
  deps: HubDeps,
  t: Target,
  obj: KubeObject,
  fieldsPreset: boolean
): KubeObject {
  const reset = deps.hooks.for(t.info.group, t.info.resource).resetFields
  const kept = reset ? reset(obj) : obj
  if (kept === obj || !fieldsPreset) return kept
  return forgetFields(kept, obj, kept)
}

/** The answer of a write: for a dry run, what its kind's hook makes of `obj`; else `obj`. */
export async function dryRunAnswer(
  deps: HubDeps,
  t: Target,
  opts: WriteOptions,
  obj: KubeObject
): Promise<KubeObject> {
  if (!opts.dryRun) return obj
  const hook = deps.hooks.for(t.info.group, t.info.resource).dryRunAnswer
  return hook ? hook({ deps, space: t.space, baseUrl: opts.baseUrl }, obj) : obj
}
