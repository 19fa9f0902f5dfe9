/**
 * kube's decoding of an object's metadata into its typed ObjectMeta, which refuses what does not
 * fit before any validation runs: a value of the wrong JSON type (`json: cannot unmarshal number
 * into Go struct field ManagedFieldsEntry.metadata.managedFields.manager of type string`, Go's
 * UnmarshalTypeError: the innermost struct, the JSON path without indexes, the Go type), or a
 * time that is not RFC 3339 (metav1.Time's own error, go-time-parse.ts). As Go's decoder, a type
 * error is kept while decoding goes on and a time error stops it at once, so a time error wins;
 * null is always accepted (it leaves the field unset). The create and update handlers answer the
 * message as 400 BadRequest (`ConfigMap in version "v1" cannot be handled as a ConfigMap: …`).
 */
import { rfc3339ParseError } from './go-time-parse.ts'
import { isRecord } from './validate-util.ts'

/** Go's name for a JSON value in an UnmarshalTypeError. */
function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array'
  if (typeof v === 'number') return 'number'
  if (typeof v === 'boolean') return 'bool'
  if (typeof v === 'string') return 'string'
  return 'object'
}

type Found = { typeError?: string; hard?: string }

/** Where a value sits: the innermost Go struct, the JSON path (no indexes) and the Go type. */
type Place = { struct: string; path: string; type: string }

function typeError(found: Found, v: unknown, at: Place): void {
  const value = typeof v === 'number' && at.type === 'int64' ? `number ${v}` : jsonKind(v)
  found.typeError ??= `json: cannot unmarshal ${value} into Go struct field ${at.struct}.${at.path} of type ${at.type}`
}

/** metav1.Time's UnmarshalJSON: a string that parses as RFC 3339. */
function time(found: Found, v: unknown): void {
  if (found.hard || v === null || v === undefined) return
  if (typeof v !== 'string') {
    found.hard = `json: cannot unmarshal ${jsonKind(v)} into Go value of type string`
    return
  }
  const err = rfc3339ParseError(v)
  if (err) found.hard = err
}

/** A Go struct: its name and the Go type of each JSON field ("time": metav1.Time, "raw": any JSON). */
type Struct = { name: string; fields: Record<string, string> }

const OWNER_REFERENCE: Struct = {
  name: 'OwnerReference',
  fields: {
    apiVersion: 'string',
    kind: 'string',
    name: 'string',
    uid: 'types.UID',
    controller: 'bool',
    blockOwnerDeletion: 'bool',
  },
}

const MANAGED_FIELDS_ENTRY: Struct = {
  name: 'ManagedFieldsEntry',
  fields: {
    manager: 'string',
    operation: 'v1.ManagedFieldsOperationType',
    apiVersion: 'string',
    time: 'time',
    fieldsType: 'string',
    fieldsV1: 'raw',
    subresource: 'string',
  },
}

const OBJECT_META: Struct = {
  name: 'ObjectMeta',
  fields: {
    name: 'string',
    generateName: 'string',
    namespace: 'string',
    selfLink: 'string',
    uid: 'types.UID',
    resourceVersion: 'string',
    generation: 'int64',
    creationTimestamp: 'time',
    deletionTimestamp: 'time',
    deletionGracePeriodSeconds: 'int64',
  },
}

/** A scalar field. */
function scalar(found: Found, v: unknown, at: Place): void {
  if (v === null || v === undefined || at.type === 'raw') return
  if (at.type === 'time') time(found, v)
  else if (at.type === 'int64') {
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) typeError(found, v, at)
  } else if (at.type === 'bool') {
    if (typeof v !== 'boolean') typeError(found, v, at)
  } else if (typeof v !== 'string') typeError(found, v, at)
}

/** The fields of a struct value (a JSON object), in the order they were sent. */
function struct(found: Found, obj: Record<string, unknown>, s: Struct, path: string): void {
  for (const [key, v] of Object.entries(obj)) {
    const type = s.fields[key]
    if (type) scalar(found, v, { struct: s.name, path: `${path}.${key}`, type })
  }
}

/** A list of structs (`[]v1.OwnerReference`). */
function structList(found: Found, v: unknown, s: Struct, path: string): void {
  if (v === null || v === undefined) return
  const at = { struct: 'ObjectMeta', path }
  if (!Array.isArray(v)) {
    typeError(found, v, { ...at, type: `[]v1.${s.name}` })
    return
  }
  for (const item of v) {
    if (item === null) continue
    if (!isRecord(item)) typeError(found, item, { ...at, type: `v1.${s.name}` })
    else struct(found, item, s, path)
  }
}

/** `map[string]string` (labels, annotations) or `[]string` (finalizers). */
function strings(found: Found, v: unknown, at: Place): void {
  if (v === null || v === undefined) return
  const asMap = at.type.startsWith('map')
  if (asMap ? !isRecord(v) : !Array.isArray(v)) {
    typeError(found, v, at)
    return
  }
  for (const item of Object.values(v as object))
    if (item !== null && typeof item !== 'string') typeError(found, item, { ...at, type: 'string' })
}

/** Go's decoding error for `meta` (an object's metadata), or undefined when it decodes. */
export function metadataDecodeError(meta: Record<string, unknown>): string | undefined {
  const found: Found = {}
  for (const [key, v] of Object.entries(meta)) {
    const path = `metadata.${key}`
    const at = { struct: 'ObjectMeta', path }
    if (key === 'labels' || key === 'annotations')
      strings(found, v, { ...at, type: 'map[string]string' })
    else if (key === 'finalizers') strings(found, v, { ...at, type: '[]string' })
    else if (key === 'ownerReferences') structList(found, v, OWNER_REFERENCE, path)
    else if (key === 'managedFields') structList(found, v, MANAGED_FIELDS_ENTRY, path)
    else {
      const type = OBJECT_META.fields[key]
      if (type) scalar(found, v, { ...at, type })
    }
    if (found.hard) return found.hard
  }
  return found.typeError
}
