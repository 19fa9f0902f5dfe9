/**
 * PATCH of an object or its status: JSON patch (RFC 6902), JSON merge patch (RFC 7386),
 * strategic merge patch (built-in kinds only; custom resources get 415 as in kube) and server-side
 * apply (`application/apply-patch+yaml`: create-or-update with field ownership). The patched object
 * goes through the same commit as an update, after kube's checkName (it still names the object on
 * the URL). A write that lost the race to a concurrent writer is
 * patched again against the newest object (retry-stale.ts), as kube does; a resourceVersion the
 * patch itself sets stays a precondition and fails once the object moved. An apply that found
 * nothing and lost a create race applies again, now as an update.
 */
import { badRequest, isApiError, StaleWriteError, unsupportedMediaType } from '../errors.ts'
import { timestamp } from '../kube/time.ts'
import type { JsonValue, KubeObject } from '../kube/types.ts'
import { applyJsonPatch } from '../patch/json-patch.ts'
import { applyMergePatch } from '../patch/merge-patch.ts'
import { serverSideApply } from '../patch/server-side-apply.ts'
import { applyStrategicMergePatch, supportsStrategicMerge } from '../patch/strategic-merge.ts'
import { createObject } from './create.ts'
import type { HubDeps } from './deps.ts'
import { fieldSchemaFor } from './field-schema.ts'
import { checkAppliedIdentity } from './identity.ts'
import { nameMismatch } from './mismatch.ts'
import type { WriteOptions, WriteResult } from './options.ts'
import { retryStale } from './retry-stale.ts'
import type { Target } from './target.ts'
import { commitUpdate, readCurrent, type Subresource } from './update.ts'
import { withoutUnknownFields } from './validation.ts'

export const PATCH_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
] as const
export type PatchType = (typeof PATCH_TYPES)[number]

function isObject(v: unknown): v is Record<string, JsonValue> {
  return !!v && typeof v === 'object' && !Array.isArray(v)
}

function patched(t: Target, current: KubeObject, type: PatchType, patch: unknown): KubeObject {
  let out: unknown
  if (type === 'application/json-patch+json') {
    if (!Array.isArray(patch)) throw badRequest('a JSON patch must be a JSON array of operations')
    out = applyJsonPatch(current as unknown as JsonValue, patch as JsonValue[])
  } else if (type === 'application/merge-patch+json') {
    if (!isObject(patch)) throw badRequest('a merge patch must be a JSON object')
    out = applyMergePatch(current as unknown as JsonValue, patch)
  } else {
    if (!supportsStrategicMerge(t.info.group, t.info.kind))
      throw unsupportedMediaType(
        `strategic merge patch is not supported for ${t.info.kind}.${t.info.group}: use a JSON merge patch or JSON patch`
      )
    if (!isObject(patch)) throw badRequest('a strategic merge patch must be a JSON object')
    out = applyStrategicMergePatch(current as unknown as JsonValue, patch, {
      group: t.info.group,
      version: t.version,
      kind: t.info.kind,
    })
  }
  if (!isObject(out) || !isObject(out.metadata))
    throw badRequest('the patch removed the object metadata')
  return out as unknown as KubeObject
}

/**
 * kube's checkName on the patched object: it must still carry the name on the URL. A patch that
 * removes or moves `/metadata/name` leaves none ("undeterminable"); one that changes it is the
 * mismatch every write answers.
 */
function checkPatchedName(next: KubeObject, onUrl: string): void {
  const name = next.metadata.name
  if (name === undefined || name === null || name === '')
    throw badRequest(
      `the name of the object (${onUrl} based on URL) was undeterminable: name must be provided`
    )
  // A name of another JSON type fails decoding first (identity.ts: 422).
  if (typeof name === 'string' && name !== onUrl) throw nameMismatch(name, onUrl)
}

/**
 * What an apply may own: at the main resource everything but status where a status subresource
 * exists; at `/status` only status (kube resets the rest of a status write, and so does not
 * record it as the manager's), with the object's identity kept for the checks.
 */
function appliedFor(t: Target, config: KubeObject, sub: Subresource): KubeObject {
  if (sub === 'status') {
    const meta: Record<string, unknown> = isObject(config.metadata) ? config.metadata : {}
    const keep = ['name', 'namespace', 'uid', 'resourceVersion'].filter((k) => k in meta)
    const metadata = Object.fromEntries(keep.map((k) => [k, meta[k]]))
    const out = { ...config, metadata } as KubeObject
    for (const k of Object.keys(out))
      if (!['apiVersion', 'kind', 'metadata', 'status'].includes(k)) delete out[k]
    return out
  }
  const out = { ...config }
  if (t.info.subresources.status) delete out.status
  return out
}

/** A PATCH: `patch` is the parsed body of `type`, `sub` the subresource (none: the object). */
export type PatchRequest = {
  patch: unknown
  type: PatchType
  opts: WriteOptions
  sub?: Subresource
}

async function apply(deps: HubDeps, t: Target, r: PatchRequest): Promise<WriteResult> {
  const { patch, opts, sub } = r
  if (!isObject(patch)) throw badRequest('an apply configuration must be an object')
  if (!opts.fieldManager || opts.fieldManager === 'unknown')
    throw badRequest('fieldManager is required for apply requests')
  const applied = appliedFor(t, patch as unknown as KubeObject, sub)
  const now = timestamp(deps.now())
  const base = { manager: opts.fieldManager, force: opts.force, now, schema: fieldSchemaFor(t) }
  const current = await readCurrent(deps, t, t.name ?? '').catch((e: unknown) => {
    if (isApiError(e) && e.code === 404 && sub === undefined) return undefined
    throw e
  })
  checkAppliedIdentity(t, applied, current)
  if (!current) {
    const obj = serverSideApply({ ...base, applied })
    return createObject(
      deps,
      { ...t, name: undefined },
      { body: obj, opts, fieldsPreset: true }
    ).catch((e: unknown) => {
      // Created by someone else since the read: apply again, as an update of theirs.
      if (isApiError(e) && e.reason === 'AlreadyExists')
        throw new StaleWriteError(t.info.resource, { name: t.name ?? '' }, 'created concurrently')
      throw e
    })
  }
  // Fields an older release stored unpruned neither conflict nor stay owned (update.ts drops them).
  const stored = withoutUnknownFields(t, current)
  const next = serverSideApply({
    ...base,
    live: stored.object,
    applied,
    ...(sub ? { subresource: sub } : {}),
  })
  // A resourceVersion in the configuration is the client's precondition (commitUpdate checks it).
  const pinned = isObject(applied.metadata) ? applied.metadata.resourceVersion : undefined
  next.metadata.resourceVersion =
    typeof pinned === 'string' && pinned !== '' ? pinned : current.metadata.resourceVersion
  return commitUpdate(deps, t, { read: current, next, opts, sub, applied: stored })
}

export async function patchObject(deps: HubDeps, t: Target, r: PatchRequest): Promise<WriteResult> {
  const { patch, type, opts, sub } = r
  return retryStale(async () => {
    if (type === 'application/apply-patch+yaml') return apply(deps, t, r)
    const current = await readCurrent(deps, t, t.name ?? '')
    const next = patched(t, current, type, patch)
    checkPatchedName(next, t.name ?? '')
    if (!next.metadata.resourceVersion)
      next.metadata.resourceVersion = current.metadata.resourceVersion
    return commitUpdate(deps, t, { read: current, next, opts, sub })
  })
}
