/**
 * Plain types for Kubernetes objects as edgeplane handles them inside: an object is JSON with
 * `apiVersion`, `kind` and `metadata`; everything else is opaque to the hub except where a
 * specific handler (namespaces, CRDs, workspaces) looks deeper. Schemas that validate these
 * shapes at the edges live beside the handlers that need them.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [k: string]: JsonValue }
export type JsonObject = { [k: string]: JsonValue }

export type OwnerReference = {
  apiVersion: string
  kind: string
  name: string
  uid: string
  controller?: boolean
  blockOwnerDeletion?: boolean
}

export type ManagedFieldsEntry = {
  manager?: string
  operation?: 'Apply' | 'Update'
  apiVersion?: string
  time?: string
  fieldsType?: 'FieldsV1'
  fieldsV1?: JsonObject
  subresource?: string
}

export type ObjectMeta = {
  name?: string
  generateName?: string
  namespace?: string
  uid?: string
  resourceVersion?: string
  generation?: number
  creationTimestamp?: string
  deletionTimestamp?: string
  deletionGracePeriodSeconds?: number
  labels?: Record<string, string>
  annotations?: Record<string, string>
  finalizers?: string[]
  ownerReferences?: OwnerReference[]
  managedFields?: ManagedFieldsEntry[]
  selfLink?: string
}

/** Any Kubernetes object. Fields other than the type and object metadata are untyped JSON. */
export type KubeObject = {
  apiVersion: string
  kind: string
  metadata: ObjectMeta
  [field: string]: JsonValue | ObjectMeta | undefined
}

/** Where a resource lives in the API: `group` is '' for the core group. */
export type GroupResource = { group: string; resource: string }
export type GroupVersionKind = { group: string; version: string; kind: string }
export type GroupVersionResource = { group: string; version: string; resource: string }

/** The annotation kcp puts on every object, naming its logical cluster (space id). */
export const CLUSTER_ANNOTATION = 'kcp.io/cluster'
