/**
 * Update (PUT) of an object or of its status subresource, and the commit step patches share.
 * A main-resource write keeps the stored status when the resource has a status subresource; a
 * status write changes nothing but status. Server-owned metadata is carried over, generation moves
 * only on spec changes, and a write that changes nothing is answered without touching the store.
 * Fields the kind resets are dropped first (an EdgePlacement's status.preview), and a dry run is
 * answered as the kind's dry-run hook shapes it (dry-run.ts).
 * The precondition is the body's resourceVersion when given; without one the update is
 * unconditional where kube allows that (built-in kinds) and 422 where it does not (custom and kcp
 * kinds, CRDs, admission and API registrations), and a concurrent writer makes it read again
 * (retry-stale.ts), never a 409. The identity of the object (kind, apiVersion group, name,
 * namespace, uid) cannot change (identity.ts). Unknown fields the stored object carries (written
 * before the hub pruned them) are dropped from it before anything else, as kube prunes what it
 * reads from storage: they fail no write, whatever its fieldValidation, and the first write that
 * stores the object again removes them and logs it once, naming the writer and the object.
 */
import { conflict, invalid, notFound } from '../errors.ts'
import { timestamp } from '../kube/time.ts'
import type { KubeObject } from '../kube/types.ts'
import { recordUpdate } from '../patch/server-side-apply.ts'
import { applyDefaults } from './defaulting.ts'
import type { HubDeps } from './deps.ts'
import { dryRunAnswer, resetFields } from './dry-run.ts'
import { fieldSchemaFor } from './field-schema.ts'
import { checkIdentity } from './identity.ts'
import { carryMetadata, jsonEqual, keepStatus, takeStatus } from './metadata.ts'
import { nameMismatch } from './mismatch.ts'
import { isNamespaces, withNameLabel } from './namespace-label.ts'
import type { WriteOptions, WriteResult } from './options.ts'
import { forgetFields } from './pruned-fields.ts'
import { retryStale } from './retry-stale.ts'
import { objectKey, servedAt, storedAt, type Target, targetDetails } from './target.ts'
import {
  asKubeObject,
  checkObject,
  placeInNamespace,
  type StoredView,
  withoutUnknownFields,
} from './validation.ts'
import { storeUpdate } from './write.ts'

export type Subresource = 'status' | undefined

export async function readCurrent(deps: HubDeps, t: Target, name: string): Promise<KubeObject> {
  const current = await deps.objects.get(objectKey(t, name))
  if (!current) throw notFound(t.info.resource, targetDetails(t, name))
  return servedAt(t, current)
}

function withoutVersion(obj: KubeObject): unknown {
  const { resourceVersion: _r, ...meta } = obj.metadata
  return { ...obj, metadata: meta }
}

function comparable(obj: KubeObject): unknown {
  const { managedFields: _m, resourceVersion: _r, ...meta } = obj.metadata
  return { ...obj, metadata: meta }
}

/**
 * commitUpdate's request. Writes `next` over `read`, the stored object (both at the client's version). `next` is a full
 * object as the client wants it; the status rules of the subresource are applied here. `applied`
 * comes from server-side apply: its view of `read` (`withoutUnknownFields`), over which it already
 * set `next`'s managedFields; so the stored object is pruned once per write.
 */
export type CommitRequest = {
  read: KubeObject
  next: KubeObject
  opts: WriteOptions
  sub?: Subresource
  applied?: StoredView
}

export async function commitUpdate(
  deps: HubDeps,
  t: Target,
  r: CommitRequest
): Promise<WriteResult> {
  const { read, next, opts, sub, applied } = r
  const fieldsPreset = applied !== undefined
  const { object: current, pruned } = applied ?? withoutUnknownFields(t, read)
  const name = current.metadata.name ?? ''
  const expectedRv = next.metadata.resourceVersion || current.metadata.resourceVersion || ''
  // As kube's store: a stale resourceVersion is a Conflict before any validation.
  if (expectedRv !== current.metadata.resourceVersion)
    throw conflict(
      t.info.resource,
      targetDetails(t, name),
      'the object has been modified; please apply your changes to the latest version and try again'
    )
  checkIdentity(t, current, next, sub)
  let draft =
    sub === 'status'
      ? takeStatus(current, next, fieldsPreset)
      : t.info.subresources.status
        ? keepStatus(current, next)
        : next
  draft = resetFields(deps, t, draft, fieldsPreset)
  if (sub !== 'status')
    draft = await applyDefaults(deps, t, { obj: draft, old: current, dryRun: opts.dryRun })
  if (sub !== 'status' && isNamespaces(t.info.group, t.info.resource)) draft = withNameLabel(draft)
  const checked = checkObject(
    t,
    carryMetadata(current, draft),
    opts.fieldValidation,
    new Set(pruned)
  )
  const warnings = checked.warnings
  draft = checked.object
  if (opts.admit) await opts.admit(draft)
  const now = timestamp(deps.now())
  if (!fieldsPreset)
    draft = recordUpdate({
      before: current,
      after: draft,
      manager: opts.fieldManager,
      operation: 'Update',
      now,
      ...(sub ? { subresource: sub } : {}),
      schema: fieldSchemaFor(t),
    })
  // Whatever wrote the managedFields (the client, an apply over the stored object), none may own
  // a field pruned from the stored object.
  if (pruned.length > 0) draft = forgetFields(draft, read, current)
  // An apply that changes no value may still move ownership, which is written (as kube does).
  const same = fieldsPreset
    ? jsonEqual(withoutVersion(draft), withoutVersion(current))
    : jsonEqual(comparable(draft), comparable(current))
  if (same) {
    const object = await dryRunAnswer(deps, t, opts, current)
    return { object, warnings, created: false, unchanged: true }
  }
  draft.metadata.resourceVersion = current.metadata.resourceVersion
  if (opts.dryRun)
    return { object: await dryRunAnswer(deps, t, opts, draft), warnings, created: false }
  if (pruned.length > 0)
    deps.log.warn('dropped unknown fields kept by an older release', {
      writer: opts.fieldManager,
      object: `${t.space.id}/${t.info.group}/${t.info.resource}/${current.metadata.namespace ?? ''}/${name}`,
      fields: pruned,
    })
  const stored = await storeUpdate(deps, objectKey(t, name), {
    before: current,
    after: storedAt(t, draft),
    expectedRv,
  })
  return { object: servedAt(t, stored), warnings, created: false }
}

/**
 * Whether kube updates this resource without a resourceVersion (its strategy's
 * AllowUnconditionalUpdate): true for the built-in kinds, false for custom resources, CRDs and the
 * registration kinds — and for the kcp and edge kinds, which kcp serves as custom resources.
 */
export function allowsUnconditionalUpdate(t: Target): boolean {
  const g = t.info.group
  if (t.info.source === 'crd' || g.endsWith('.kcp.io')) return false
  return ![
    'apiextensions.k8s.io',
    'admissionregistration.k8s.io',
    'apiregistration.k8s.io',
  ].includes(g)
}

/** A PUT: `body` is the parsed request body, `sub` the subresource written (none: the object). */
export type UpdateRequest = { body: unknown; opts: WriteOptions; sub?: Subresource }

export async function updateObject(
  deps: HubDeps,
  t: Target,
  r: UpdateRequest
): Promise<WriteResult> {
  const { body, opts, sub } = r
  const obj = placeInNamespace(t, asKubeObject(t, body))
  const name = t.name ?? ''
  // kube's checkName: the body must name the object the URL names (an absent name too is 400).
  if (obj.metadata.name !== name) throw nameMismatch(obj.metadata.name ?? '', name)
  const pinned = obj.metadata.resourceVersion
  return retryStale(async () => {
    const current = await readCurrent(deps, t, name)
    if (!pinned && !allowsUnconditionalUpdate(t))
      throw invalid(t.info.resource, targetDetails(t, name), [
        {
          reason: 'FieldValueInvalid',
          field: 'metadata.resourceVersion',
          message: 'Invalid value: 0x0: must be specified for an update',
        },
      ])
    const next = { ...obj, metadata: { ...obj.metadata, name } }
    return commitUpdate(deps, t, { read: current, next, opts, sub })
  })
}
