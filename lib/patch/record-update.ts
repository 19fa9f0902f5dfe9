/**
 * Field ownership for ordinary writes (create, update, patch: operation `Update`). The fields the
 * write added or changed now belong to the writing manager and no longer to anyone else; fields it
 * removed belong to nobody. A client may replace managedFields by sending different ones (kube's
 * way to reset them: `[{}]` clears the list); an empty or unchanged list keeps the stored ones.
 */
import type { JsonObject, KubeObject } from '../kube/types.ts'
import { schemaForObject } from './builtin-schemas.ts'
import { difference, sameSet, union } from './field-set.ts'
import { changedFields, compareFields, objectFields } from './field-walk.ts'
import { deepEqual } from './json-values.ts'
import {
  decodeManagedFields,
  type Manager,
  managerIdentity,
  withManagedFields,
} from './managed-fields.ts'
import type { NodeSchema } from './patch-schema.ts'

export type RecordUpdateOptions = {
  /** The stored object; undefined on create. */
  before?: KubeObject | undefined
  after: KubeObject
  manager: string
  operation: 'Update'
  now: string
  subresource?: string
  /** The kind's merge-key schema; by default the built-in table's (builtin-schemas.ts). */
  schema?: NodeSchema
}

/** `after` with its managedFields updated for a non-apply write by `manager`. */
export function recordUpdate(opts: RecordUpdateOptions): KubeObject {
  const { before, after } = opts
  const stored = before?.metadata.managedFields ?? []
  const sent = after.metadata.managedFields ?? []
  if (sent.length > 0 && !deepEqual(sent, stored)) {
    return withManagedFields(after, decodeManagedFields(sent))
  }
  const schema = opts.schema ?? schemaForObject(after)
  const beforeFields = before
    ? objectFields(before as unknown as JsonObject, schema, 'compare')
    : new Map()
  const diff = compareFields(
    beforeFields,
    objectFields(after as unknown as JsonObject, schema, 'compare')
  )
  const touched = union(changedFields(diff), diff.removed)
  const self = {
    manager: opts.manager,
    operation: 'Update' as const,
    apiVersion: after.apiVersion,
    ...(opts.subresource ? { subresource: opts.subresource } : {}),
  }
  const selfId = managerIdentity(self)
  const managers = decodeManagedFields(stored)
  const previous = managers.find((m) => managerIdentity(m) === selfId)
  const others: Manager[] = managers
    .filter((m) => m !== previous)
    .map((m) => ({ ...m, fields: difference(m.fields, touched) }))
  const fields = union(difference(previous?.fields ?? new Set(), diff.removed), changedFields(diff))
  const moved = touched.size > 0 || !sameSet(fields, previous?.fields ?? new Set())
  const time = moved ? opts.now : previous?.time
  return withManagedFields(after, [...others, { ...self, fields, ...(time ? { time } : {}) }])
}
