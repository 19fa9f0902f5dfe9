/**
 * DynamoDB's key size limits, checked before a key built from client input is sent: a partition
 * key holds at most 2048 bytes of UTF-8, a sort key at most 1024 (in the table and in the index
 * alike). DynamoDB answers a longer key with a ValidationException, which would surface as a 500.
 * A key too long for these limits can name no stored item, so reads treat it as absent (without a
 * request) and writes refuse it with a 4xx naming the field (`tooLongToStore`).
 */
import { invalid } from '../errors.ts'
import { headKey, kvPk, objectGsiPk, objectGsiSk } from './keys.ts'
import type { ObjectKey } from './types.ts'

export const MAX_PK_BYTES = 2048
export const MAX_SK_BYTES = 1024

const encoder = new TextEncoder()

/** UTF-8 length; a string of at most limit/3 UTF-16 units fits without being encoded. */
function fitsBytes(text: string, limit: number): boolean {
  if (text.length * 3 <= limit) return true
  return encoder.encode(text).length <= limit
}

/** Whether an item can have this primary key (or index key). */
export const keyFits = (pk: string, sk: string): boolean =>
  fitsBytes(pk, MAX_PK_BYTES) && fitsBytes(sk, MAX_SK_BYTES)

/** Whether a key-value entry can be stored under `key` in `ns`. */
export const kvKeyFits = (ns: string, key: string): boolean => keyFits(kvPk(ns), key)

/** Whether an object can be stored under `key`: its head key and its index key both fit. */
export function objectKeyFits(key: ObjectKey): boolean {
  const { pk, sk } = headKey(key)
  return keyFits(pk, sk) && keyFits(objectGsiPk(key.group, key.resource), objectGsiSk(key))
}

/** Whether any object of `namespace` fits (its sort keys start with `<namespace>/`). */
export const namespaceFits = (namespace: string): boolean =>
  fitsBytes(`${namespace}/x`, MAX_SK_BYTES)

/**
 * 422 Invalid for a create whose key cannot be stored, naming the namespace when it alone is too
 * long for any object, else the name, with the most bytes it could have here. The hub's validation
 * refuses such names first for every kind whose name rule has a length limit; this is the last
 * line for the others (the RBAC kinds' path-segment names).
 */
export function tooLongToStore(key: ObjectKey) {
  const used = (text: string) => encoder.encode(text).length
  const nameRoom = MAX_SK_BYTES - used(`${key.cluster}#${key.namespace}/`)
  const field = nameRoom > 0 ? 'metadata.name' : 'metadata.namespace'
  const room = nameRoom > 0 ? nameRoom : MAX_SK_BYTES - used(`${key.cluster}#/x`)
  const target = { ...(key.group ? { group: key.group } : {}), kind: key.resource, name: key.name }
  return invalid(key.resource, target, [
    { reason: 'FieldValueTooLong', field, message: `Too long: must have at most ${room} bytes` },
  ])
}
