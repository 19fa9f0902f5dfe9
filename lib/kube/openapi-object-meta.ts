/**
 * The ObjectMeta and ListMeta component schemas `/openapi/v3` serves, with a description on every
 * field, so `kubectl explain <kind>.metadata` says what each one is. The fields are those of the
 * schema validation uses (OBJECT_META of validate-builtin-dsl.ts); this file only adds the words,
 * and a field added there without words here fails test/lib/kube/openapi-descriptions.test.ts.
 */
import type { JsonObject, JsonValue } from './types.ts'
import { OBJECT_META, type Schema, str } from './validate-builtin-dsl.ts'

const OWNER_REFERENCE: Record<string, string> = {
  apiVersion: 'API version of the owner.',
  kind: 'Kind of the owner.',
  name: 'Name of the owner.',
  uid: 'UID of the owner: the reference holds only while an object with this uid exists.',
  controller: 'True when the owner is the managing controller; at most one owner is.',
  blockOwnerDeletion:
    'True: a foreground deletion of the owner waits until this object is deleted.',
}

const OBJECT_META_FIELDS: Record<string, string> = {
  name: 'Name of the object, unique per kind within its namespace (or space, for a cluster-scoped kind). Cannot be changed.',
  generateName:
    'A prefix the server completes with a random suffix when the object is created without a name.',
  namespace:
    'The namespace of a namespaced object; empty for cluster-scoped kinds. Cannot be changed.',
  selfLink: 'Deprecated and never set.',
  uid: 'Unique identity of this object, set by the server at creation and never reused.',
  resourceVersion:
    'Opaque version of the object, changed on every write; an update carrying it succeeds only if the object has not changed since it was read.',
  generation: 'A sequence number the server raises on each change of the desired state (spec).',
  creationTimestamp: 'When the server created the object (RFC 3339). Read-only.',
  deletionTimestamp:
    'When deletion was requested; the object goes once its finalizers are all removed. Read-only.',
  deletionGracePeriodSeconds:
    'Seconds the object was given to terminate gracefully, set along with deletionTimestamp.',
  labels: 'Key/value pairs for selecting and grouping objects (label selectors match them).',
  annotations: 'Key/value pairs of non-identifying data for tools and controllers.',
  ownerReferences:
    'Objects this one depends on: once every owner is gone, the garbage collector deletes it.',
  finalizers:
    'Names of the tasks that must finish before the object is deleted; each is removed by its controller.',
  managedFields:
    'Which field manager owns which fields, as server-side apply records it. Maintained by the server.',
}

const LIST_META_FIELDS: Record<string, string> = {
  resourceVersion: 'The version of the list; a watch from it starts after this list.',
  continue: 'Set when more items exist: pass it as `continue` to get the next page.',
  remainingItemCount: 'How many items are left after this page, when the server knows.',
  selfLink: 'Deprecated and never set.',
}

function isObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** `schema` (an object schema) with each property that has words described. */
function described(schema: Schema, words: Record<string, string>): Schema {
  const props = isObject(schema.properties) ? schema.properties : {}
  const out: Record<string, JsonValue> = {}
  for (const [name, field] of Object.entries(props)) {
    const description = words[name]
    out[name] = description === undefined ? field : { ...(field as JsonObject), description }
  }
  return { ...schema, properties: out }
}

function objectMetaDoc(): Schema {
  const meta = described(OBJECT_META, OBJECT_META_FIELDS)
  const props = meta.properties as Record<string, JsonObject>
  const refs = props.ownerReferences
  if (refs && isObject(refs.items)) {
    props.ownerReferences = {
      ...refs,
      items: described(refs.items, OWNER_REFERENCE),
    }
  }
  return {
    ...meta,
    description:
      'Metadata every stored object has: its name and namespace, identity, version, labels, annotations, owners and finalizers.',
  }
}

/** ObjectMeta as served in OpenAPI v3: OBJECT_META's fields, each described. */
export const OBJECT_META_DOC: Schema = objectMetaDoc()

/** ListMeta as served in OpenAPI v3 (lists are never validated against it: it stays open). */
export const LIST_META_DOC: Schema = {
  ...described(
    {
      type: 'object',
      properties: {
        resourceVersion: str,
        continue: str,
        remainingItemCount: { type: 'integer', format: 'int64' },
        selfLink: str,
      },
    },
    LIST_META_FIELDS
  ),
  'x-kubernetes-preserve-unknown-fields': true,
  description: 'Metadata of a list: its version and, for a paged list, how to get the next page.',
}
