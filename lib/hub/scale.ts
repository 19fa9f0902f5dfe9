/**
 * The scale subresource (`kubectl scale`, HPAs): an autoscaling/v1 Scale view of a workload's
 * spec.replicas, status.replicas and label selector. Writes go through to spec.replicas of the
 * object with the usual resourceVersion precondition (the Scale's, when it carries one; without
 * one a concurrent writer makes it read again, retry-stale.ts).
 */
import { badRequest } from '../errors.ts'
import type { JsonValue, KubeObject } from '../kube/types.ts'
import { applyJsonPatch } from '../patch/json-patch.ts'
import { applyMergePatch } from '../patch/merge-patch.ts'
import type { HubDeps } from './deps.ts'
import type { WriteOptions, WriteResult } from './options.ts'
import type { PatchType } from './patch.ts'
import { retryStale } from './retry-stale.ts'
import type { Target } from './target.ts'
import { commitUpdate, readCurrent } from './update.ts'

type Obj = Record<string, unknown>

function selectorString(spec: Obj | undefined): string {
  const sel = (spec?.selector ?? {}) as { matchLabels?: Record<string, string> }
  return Object.entries(sel.matchLabels ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(',')
}

export function scaleOf(obj: KubeObject): KubeObject {
  const spec = obj.spec as Obj | undefined
  const status = obj.status as Obj | undefined
  const m = obj.metadata
  return {
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata: {
      name: m.name ?? '',
      ...(m.namespace ? { namespace: m.namespace } : {}),
      uid: m.uid ?? '',
      resourceVersion: m.resourceVersion ?? '',
      creationTimestamp: m.creationTimestamp ?? '',
    },
    spec: { replicas: Number(spec?.replicas ?? 1) },
    status: { replicas: Number(status?.replicas ?? 0), selector: selectorString(spec) },
  }
}

export async function getScale(deps: HubDeps, t: Target): Promise<KubeObject> {
  return scaleOf(await readCurrent(deps, t, t.name ?? ''))
}

function replicasOf(scale: unknown): number {
  const r = ((scale as Obj | undefined)?.spec as Obj | undefined)?.replicas
  if (typeof r !== 'number' || !Number.isInteger(r) || r < 0)
    throw badRequest('spec.replicas of a Scale must be a non-negative integer')
  return r
}

/** Writes a new Scale (`body`, PUT) or a patch of the current one (PATCH). */
export async function writeScale(
  deps: HubDeps,
  t: Target,
  body: unknown,
  opts: WriteOptions,
  patchType?: PatchType
): Promise<WriteResult> {
  return retryStale(() => writeScaleOnce(deps, t, body, opts, patchType))
}

async function writeScaleOnce(
  deps: HubDeps,
  t: Target,
  body: unknown,
  opts: WriteOptions,
  patchType?: PatchType
): Promise<WriteResult> {
  const current = await readCurrent(deps, t, t.name ?? '')
  const scale = scaleOf(current) as unknown as JsonValue
  let next: unknown = body
  if (patchType === 'application/json-patch+json') next = applyJsonPatch(scale, body as JsonValue)
  else if (patchType) next = applyMergePatch(scale, body as JsonValue)
  const replicas = replicasOf(next)
  const rv = ((next as Obj).metadata as Obj | undefined)?.resourceVersion
  const updated: KubeObject = {
    ...current,
    metadata: {
      ...current.metadata,
      resourceVersion: typeof rv === 'string' && rv ? rv : (current.metadata.resourceVersion ?? ''),
    },
    spec: { ...((current.spec as Obj) ?? {}), replicas } as JsonValue,
  }
  const res = await commitUpdate(deps, t, current, updated, opts, undefined)
  return { ...res, object: scaleOf(res.object) }
}
