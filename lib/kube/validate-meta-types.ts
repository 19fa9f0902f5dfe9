/**
 * The JSON types of ObjectMeta's fields. kube decodes metadata into a typed struct, so a label map
 * that is a string or a finalizer that is a number never gets past decoding; the hub keeps objects
 * as JSON, so the types are checked here.
 * Each wrong type is one FieldValueInvalid cause naming the field. The hub checks them before it
 * merges server-owned metadata into a write (identity.ts); on create, the schema walk of
 * validate.ts reports them.
 */
import type { StatusCause } from '../errors.ts'
import { invalidCause, isRecord } from './validate-util.ts'

const STRING_FIELDS = ['name', 'generateName', 'namespace', 'uid', 'resourceVersion', 'selfLink']
const TIME_FIELDS = ['creationTimestamp', 'deletionTimestamp']

function stringMap(meta: Record<string, unknown>, key: string, out: StatusCause[]): void {
  const v = meta[key]
  if (v === undefined || v === null) return
  const ok = isRecord(v) && Object.values(v).every((x) => typeof x === 'string')
  if (!ok)
    out.push(invalidCause(`metadata.${key}`, v, 'must be a map of string keys to string values'))
}

function ownerReferenceTypes(ref: Record<string, unknown>, i: number, out: StatusCause[]): void {
  for (const key of ['apiVersion', 'kind', 'name', 'uid']) {
    const v = ref[key]
    if (v !== undefined && v !== null && typeof v !== 'string')
      out.push(invalidCause(`metadata.ownerReferences[${i}].${key}`, v, 'must be a string'))
  }
  for (const key of ['controller', 'blockOwnerDeletion']) {
    const v = ref[key]
    if (v !== undefined && v !== null && typeof v !== 'boolean')
      out.push(invalidCause(`metadata.ownerReferences[${i}].${key}`, v, 'must be a boolean'))
  }
}

/** Causes for metadata fields whose JSON type is wrong (empty when all are right). */
export function metadataTypeCauses(meta: Record<string, unknown>): StatusCause[] {
  const out: StatusCause[] = []
  for (const key of STRING_FIELDS) {
    const v = meta[key]
    if (v !== undefined && v !== null && typeof v !== 'string')
      out.push(invalidCause(`metadata.${key}`, v, 'must be a string'))
  }
  for (const key of TIME_FIELDS) {
    const v = meta[key]
    if (v !== undefined && v !== null && (typeof v !== 'string' || Number.isNaN(Date.parse(v))))
      out.push(invalidCause(`metadata.${key}`, v, 'must be an RFC 3339 date and time'))
  }
  stringMap(meta, 'labels', out)
  stringMap(meta, 'annotations', out)
  const { generation, finalizers, ownerReferences } = meta
  if (generation !== undefined && generation !== null && !Number.isInteger(generation))
    out.push(invalidCause('metadata.generation', generation, 'must be an integer'))
  if (
    finalizers !== undefined &&
    finalizers !== null &&
    !(Array.isArray(finalizers) && finalizers.every((f) => typeof f === 'string'))
  )
    out.push(invalidCause('metadata.finalizers', finalizers, 'must be a list of strings'))
  if (
    ownerReferences !== undefined &&
    ownerReferences !== null &&
    !(Array.isArray(ownerReferences) && ownerReferences.every(isRecord))
  )
    out.push(invalidCause('metadata.ownerReferences', ownerReferences, 'must be a list of objects'))
  else if (Array.isArray(ownerReferences))
    ownerReferences.forEach((ref, i) => {
      ownerReferenceTypes(ref as Record<string, unknown>, i, out)
    })
  const { managedFields } = meta
  if (
    managedFields !== undefined &&
    managedFields !== null &&
    !(Array.isArray(managedFields) && managedFields.every(isRecord))
  )
    out.push(invalidCause('metadata.managedFields', managedFields, 'must be a list of objects'))
  return out
}
