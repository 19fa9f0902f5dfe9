/**
 * The scale subresource (`kubectl scale`, HPAs): an autoscaling/v1 Scale view of a workload's
 * spec.replicas, status.replicas and label selector. Writes go through to spec.replicas of the
 * object with the usual resourceVersion precondition (the Scale's, when it carries one; without
 * one a concurrent writer makes it read again, retry-stale.ts). A written Scale must be a Scale of
 * this object: kind and apiVersion autoscaling/v1 Scale, the URL's name and namespace (400), a uid
 * it carries the object's (409, as kube's scale storage checks it), replicas an int32 (422).
 */
import { badRequest, conflict, invalid } from '../errors.ts'
import type { JsonValue, KubeObject } from '../kube/types.ts'
import { applyJsonPatch } from '../patch/json-patch.ts'
import { applyMergePatch } from '../patch/merge-patch.ts'
import type { HubDeps } from './deps.ts'
import { checkNaming } from './identity.ts'
import { apiVersionMismatch, kindMismatch } from './mismatch.ts'
import type { WriteOptions, WriteResult } from './options.ts'
import type { PatchType } from './patch.ts'
import { retryStale } from './retry-stale.ts'
import { type Target, targetDetails } from './target.ts'
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

const INT32_MAX = 2 ** 31 - 1

function replicasOf(t: Target, scale: Obj): number {
  const r = (scale.spec as Obj | undefined)?.replicas
  if (typeof r !== 'number' || !Number.isInteger(r) || r < 0)
    throw badRequest('spec.replicas of a Scale must be a non-negative integer')
  if (r > INT32_MAX)
    throw invalid(`${t.info.resource}/scale`, targetDetails(t), [
      {
        reason: 'FieldValueInvalid',
        field: 'spec.replicas',
        message: `Invalid value: ${r}: must be at most ${INT32_MAX}`,
      },
    ])
  return r
}

/** The written Scale names this object's scale, or the write is refused. */
function checkScale(t: Target, current: KubeObject, next: unknown, named: boolean): Obj {
  if (!next || typeof next !== 'object' || Array.isArray(next))
    throw badRequest('a Scale must be a JSON object')
  const scale = next as Obj
  if (scale.kind !== undefined && scale.kind !== 'Scale')
    throw kindMismatch(String(scale.kind), 'Scale')
  if (scale.apiVersion !== undefined && scale.apiVersion !== 'autoscaling/v1')
    throw apiVersionMismatch(String(scale.apiVersion), 'autoscaling/v1')
  const meta = (scale.metadata ?? {}) as Obj
  if (typeof meta !== 'object' || Array.isArray(meta))
    throw badRequest('metadata must be an object')
  const name = current.metadata.name ?? ''
  checkNaming(t, current, meta, named)
  if (meta.uid !== undefined && meta.uid !== '' && meta.uid !== current.metadata.uid)
    throw conflict(
      `${t.info.resource}/scale`,
      targetDetails(t, name),
      `Precondition failed: UID in precondition: ${String(meta.uid)}, UID in object meta: ${current.metadata.uid ?? ''}`
    )
  return scale
}

/** A new Scale (`body`, PUT) or, with `patchType`, a patch of the current one (PATCH). */
export type ScaleRequest = { body: unknown; opts: WriteOptions; patchType?: PatchType | undefined }

/** Writes the Scale `r` asks for. */
export async function writeScale(deps: HubDeps, t: Target, r: ScaleRequest): Promise<WriteResult> {
  return retryStale(() => writeScaleOnce(deps, t, r))
}

async function writeScaleOnce(deps: HubDeps, t: Target, r: ScaleRequest): Promise<WriteResult> {
  const { body, opts, patchType } = r
  const current = await readCurrent(deps, t, t.name ?? '')
  const scale = scaleOf(current) as unknown as JsonValue
  let next: unknown = body
  if (patchType === 'application/json-patch+json') next = applyJsonPatch(scale, body as JsonValue)
  else if (patchType) next = applyMergePatch(scale, body as JsonValue)
  const checked = checkScale(t, current, next, patchType === undefined)
  const replicas = replicasOf(t, checked)
  const rv = (checked.metadata as Obj | undefined)?.resourceVersion
  const updated: KubeObject = {
    ...current,
    metadata: {
      ...current.metadata,
      resourceVersion: typeof rv === 'string' && rv ? rv : (current.metadata.resourceVersion ?? ''),
    },
    spec: { ...((current.spec as Obj) ?? {}), replicas } as JsonValue,
  }
  const res = await commitUpdate(deps, t, { read: current, next: updated, opts })
  return { ...res, object: scaleOf(res.object) }
}
