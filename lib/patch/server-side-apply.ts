/**
 * Server-side apply (`application/apply-patch+yaml`) with field ownership in
 * `metadata.managedFields`. Steps: validate the configuration; without a live object it becomes
 * the object. Otherwise merge it into the live object (keyed lists by key); prune the fields this
 * manager applied last time but not now, unless another manager owns them; diff live against the
 * result and fail with 409 Conflict if another manager owns a field whose value changes (unless
 * `force`, which moves ownership); finally record the applied fields as this manager's.
 * Approximations (documented deviations from kube): null in a configuration just means "not
 * set"; objects are not converted between apiVersions; status and other per-kind reset fields are
 * tracked like any other field (the caller drops what a subresource may not write); the kind's
 * merge keys come from the caller (`schema`: the CRD's or zod kind's list markers) or the
 * built-in table; an object without managedFields is first owned by `before-first-apply`, as in
 * kube.
 * `recordUpdate` (non-apply writes) lives in `record-update.ts` and is re-exported here.
 */
import { ApiError, badRequest, type StatusCause } from '../errors.ts'
import type { JsonObject, KubeObject } from '../kube/types.ts'
import { dropNulls, mergeApplied, removeFields, validateApplied } from './apply-merge.ts'
import { schemaForObject } from './builtin-schemas.ts'
import { formatPath, pathFromKey } from './field-path.ts'
import { difference, type FieldSet, intersection, sameSet, union } from './field-set.ts'
import { changedFields, compareFields, objectFields, UNTRACKED_METADATA } from './field-walk.ts'
import { isJsonObject } from './json-values.ts'
import {
  decodeManagedFields,
  describeManager,
  type Manager,
  managerIdentity,
  withManagedFields,
} from './managed-fields.ts'
import type { NodeSchema } from './patch-schema.ts'
import { checkPatched } from './patched-result.ts'

export { type RecordUpdateOptions, recordUpdate } from './record-update.ts'

export type ApplyOptions = {
  live?: KubeObject | undefined
  applied: KubeObject
  manager: string
  force: boolean
  now: string
  subresource?: string
  /** The kind's merge-key schema; by default the built-in table's (builtin-schemas.ts). */
  schema?: NodeSchema
}

const asJson = (obj: KubeObject) => obj as unknown as JsonObject
const asKube = (obj: JsonObject) => obj as unknown as KubeObject

/**
 * The configuration without nulls and without the metadata the server owns (name and namespace
 * too when `keepIdentity` is false: an apply never renames the live object).
 */
function configOf(applied: KubeObject, keepIdentity: boolean): JsonObject {
  if (!isJsonObject(applied.metadata)) throw badRequest('an apply configuration needs metadata')
  if ((applied.metadata.managedFields ?? []).length > 0)
    throw badRequest('metadata.managedFields must be nil')
  const metadata = Object.fromEntries(
    Object.entries(applied.metadata).filter(
      ([k]) => !UNTRACKED_METADATA.has(k) || (keepIdentity && (k === 'name' || k === 'namespace'))
    )
  )
  return dropNulls(asJson({ ...applied, metadata })) as JsonObject
}

/** Applies `applied` for `manager` and returns the object to store. */
export function serverSideApply(opts: ApplyOptions): KubeObject {
  const schema = opts.schema ?? schemaForObject(opts.applied)
  const live = opts.live
  const config = configOf(opts.applied, !live)
  validateApplied(config, schema)
  const self: Manager = {
    manager: opts.manager,
    operation: 'Apply',
    apiVersion: opts.applied.apiVersion,
    fields: new Set(objectFields(config, schema, 'apply').keys()),
    ...(opts.subresource ? { subresource: opts.subresource } : {}),
  }
  if (!live) {
    checkPatched(config, 'apply')
    return withManagedFields(asKube(config), [{ ...self, time: opts.now }])
  }

  const stored = decodeManagedFields(live.metadata.managedFields)
  const managers = stored.length > 0 ? stored : [beforeFirstApply(live, schema, opts.now)]
  const previous = managers.find((m) => managerIdentity(m) === managerIdentity(self))
  const others = managers.filter((m) => m !== previous)

  const merged = checkPatched(mergeApplied(asJson(live), config, schema) as JsonObject, 'apply')
  const keep = union(self.fields, ...others.map((m) => m.fields))
  const dropped = difference(previous?.fields ?? new Set(), keep)
  removeFields(merged, schema, [...dropped].map(pathFromKey), keep)

  const diff = compareFields(
    objectFields(asJson(live), schema, 'compare'),
    objectFields(merged, schema, 'compare')
  )
  const changed = changedFields(diff)
  const conflicts = others.filter((m) => intersection(m.fields, changed).size > 0)
  if (conflicts.length > 0 && !opts.force) throw applyConflict(conflicts, changed)

  const touched = union(changed, diff.removed)
  const rest = others.map((m) => ({ ...m, fields: difference(m.fields, touched) }))
  const moved = touched.size > 0 || !previous || !sameSet(previous.fields, self.fields)
  const time = moved ? opts.now : previous?.time
  return withManagedFields(asKube(merged), [...rest, { ...self, ...(time ? { time } : {}) }])
}

/** Ownership of an object that predates managed fields: everything, as kube's placeholder. */
function beforeFirstApply(live: KubeObject, schema: NodeSchema, now: string): Manager {
  return {
    manager: 'before-first-apply',
    operation: 'Update',
    apiVersion: live.apiVersion,
    time: now,
    fields: new Set(objectFields(asJson(live), schema, 'compare').keys()),
  }
}

/** 409 Conflict listing each conflicting field and its manager, worded as kube words it. */
function applyConflict(managers: Manager[], changed: FieldSet): ApiError {
  const groups = managers
    .map((m) => ({
      who: describeManager(m),
      paths: [...intersection(m.fields, changed)].map((k) => formatPath(pathFromKey(k))).sort(),
    }))
    .sort((a, b) => (a.who < b.who ? -1 : a.who > b.who ? 1 : 0))
  const causes: StatusCause[] = groups.flatMap((g) =>
    g.paths.map((field) => ({
      reason: 'FieldManagerConflict',
      message: `conflict with ${g.who}`,
      field,
    }))
  )
  const first = causes[0]
  const message =
    causes.length === 1 && first
      ? `Apply failed with 1 conflict: ${first.message}: ${first.field}`
      : `Apply failed with ${causes.length} conflicts: ${groups
          .map((g) => [`conflicts with ${g.who}:`, ...g.paths.map((p) => `- ${p}`)].join('\n'))
          .join('\n')}`
  return new ApiError(409, 'Conflict', message, { details: { causes } })
}
