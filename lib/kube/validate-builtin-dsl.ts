/**
 * A compact way to write OpenAPI v3 (structural) schemas for the built-in kinds, plus the schemas
 * every kind shares: ObjectMeta and LabelSelector. These schemas are what strict field validation
 * checks built-in objects against, and what `/openapi/v3` serves for them, so they list every
 * field kube has at the levels they describe; deeper levels are left open (`openObject`).
 */
import type { JsonObject } from './types.ts'

export type Schema = JsonObject

export const str: Schema = { type: 'string' }
export const int32: Schema = { type: 'integer', format: 'int32' }
export const int64: Schema = { type: 'integer', format: 'int64' }
export const bool: Schema = { type: 'boolean' }
export const intOrString: Schema = { 'x-kubernetes-int-or-string': true }
/** A resource quantity: a number or a string like "500m" (not type-checked). */
export const quantity: Schema = { description: 'A quantity: a number or a string like "500m".' }
/** Anything at all. */
export const anything: Schema = { 'x-kubernetes-preserve-unknown-fields': true }
/** Any object; its fields are not checked. */
export const openObject: Schema = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }

/** An object with exactly these fields. */
export const obj = (properties: Record<string, Schema>): Schema => ({ type: 'object', properties })
/** An object with these typed fields and any others. */
export const looseObj = (properties: Record<string, Schema>): Schema => ({
  ...obj(properties),
  'x-kubernetes-preserve-unknown-fields': true,
})
export const list = (items: Schema): Schema => ({ type: 'array', items })
export const mapOf = (values: Schema): Schema => ({ type: 'object', additionalProperties: values })
/** An object whose listed fields are all open (used for kinds described only at the top). */
export const fieldsOnly = (names: string[]): Record<string, Schema> =>
  Object.fromEntries(names.map((n) => [n, anything]))

export const OBJECT_META: Schema = obj({
  name: str,
  generateName: str,
  namespace: str,
  selfLink: str,
  uid: str,
  resourceVersion: str,
  generation: int64,
  creationTimestamp: { type: 'string', nullable: true },
  deletionTimestamp: { type: 'string', nullable: true },
  deletionGracePeriodSeconds: int64,
  labels: mapOf(str),
  annotations: mapOf(str),
  ownerReferences: list(
    obj({
      apiVersion: str,
      kind: str,
      name: str,
      uid: str,
      controller: bool,
      blockOwnerDeletion: bool,
    })
  ),
  finalizers: list(str),
  managedFields: list(openObject),
})

export const LABEL_SELECTOR: Schema = obj({
  matchLabels: mapOf(str),
  matchExpressions: list(obj({ key: str, operator: str, values: list(str) })),
})
