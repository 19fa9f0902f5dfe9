/**
 * Validation of an object about to be written: the request body must be a kube object of the
 * addressed kind (a built-in type's missing apiVersion/kind taken from the URL, as kube does), in
 * the addressed namespace, and pass the resource's schema. Unknown fields (in metadata too) are
 * never stored, as kube's structural pruning drops them; fieldValidation decides what else they
 * do: Strict rejects the write (400, kube's strict decoding error), Warn drops them with a
 * warning each, Ignore drops them silently. Unknown fields a stored object still carries (written
 * before the hub pruned) are dropped on its next write whatever the mode, without failing it.
 * The managedFields of the stored object never name a dropped field (pruned-fields.ts).
 */
import { badRequest, invalid, tooLarge } from '../errors.ts'
import { metadataDecodeError } from '../kube/decode-meta.ts'
import { apiVersionOf } from '../kube/request-path.ts'
import type { KubeObject } from '../kube/types.ts'
import { pruneUnknownFields, strictDecodingMessage, validateObject } from '../kube/validate.ts'
import { MAX_OBJECT_BYTES } from '../store/body-codec.ts'
import { apiVersionMismatch, kindMismatch, namespaceMismatch } from './mismatch.ts'
import type { FieldValidation } from './options.ts'
import { forgetPrunedFields } from './pruned-fields.ts'
import { type Target, targetDetails } from './target.ts'

/**
 * Checks the body's shape and identity against the target; returns it typed. As kube's decoder
 * does for its built-in types, a missing `kind`, or a missing version (with no group or the
 * URL's group), is taken from the URL, so typed clients that send neither (the Python client's
 * models) are served. Metadata that does not decode into kube's ObjectMeta (a wrong JSON type, a
 * time that is not RFC 3339: decode-meta.ts) is a 400 with kube's decoding message. Custom resources decode as unstructured objects in kube, where `kind` is
 * required and a missing apiVersion cannot match the URL's. A body that names another group,
 * version or kind is refused (400), as kube refuses it.
 */
export function asKubeObject(t: Target, body: unknown): KubeObject {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw badRequest('the request body must be a JSON or YAML object')
  const given = body as Record<string, unknown>
  const builtin = t.info.source === 'builtin'
  const kind = typeOrEmpty(given.kind, 'kind')
  if (kind === '' && !builtin) throw badRequest("Object 'Kind' is missing in the request body")
  const apiVersion = typeOrEmpty(given.apiVersion, 'apiVersion')
  const expected = apiVersionOf(t.info.group, t.version)
  const actual = builtin ? withDefaultVersion(apiVersion, t) : apiVersion
  if (actual !== expected) throw apiVersionMismatch(apiVersion, expected)
  if (kind !== '' && kind !== t.info.kind) throw kindMismatch(kind, t.info.kind)
  const { apiVersion: _v, kind: _k, ...rest } = given
  const obj = { apiVersion: expected, kind: t.info.kind, ...rest } as KubeObject
  if (obj.metadata === undefined || obj.metadata === null) return { ...obj, metadata: {} }
  if (typeof obj.metadata !== 'object' || Array.isArray(obj.metadata))
    throw badRequest('metadata must be an object')
  const decodeError = metadataDecodeError(obj.metadata as Record<string, unknown>)
  if (decodeError) {
    const version = actual.slice(actual.indexOf('/') + 1)
    throw badRequest(
      `${kind || t.info.kind} in version ${JSON.stringify(version)} cannot be handled as a ${t.info.kind}: ${decodeError}`
    )
  }
  return obj
}

/** A string type field, '' when absent or null (as Go decodes them); anything else is a 400. */
function typeOrEmpty(value: unknown, field: 'kind' | 'apiVersion'): string {
  if (value === undefined || value === null) return ''
  if (typeof value !== 'string') {
    const found = Array.isArray(value) ? 'an array' : `a ${typeof value}`
    throw badRequest(`${field} must be a string, not ${found}`)
  }
  return value
}

/** kube's defaulting of a decoded group/version: an empty version takes the URL's. */
function withDefaultVersion(apiVersion: string, t: Target): string {
  if (apiVersion === '') return apiVersionOf(t.info.group, t.version)
  const slash = apiVersion.indexOf('/')
  if (slash >= 0 && slash === apiVersion.length - 1 && apiVersion.slice(0, slash) === t.info.group)
    return apiVersionOf(t.info.group, t.version)
  return apiVersion
}

/** Puts the object in the request's namespace; a different namespace in the body is a 400. */
export function placeInNamespace(t: Target, obj: KubeObject): KubeObject {
  if (!t.info.namespaced) {
    if (obj.metadata.namespace) {
      const metadata = { ...obj.metadata }
      delete metadata.namespace
      return { ...obj, metadata }
    }
    return obj
  }
  const ns = t.namespace ?? ''
  if (obj.metadata.namespace && obj.metadata.namespace !== ns) throw namespaceMismatch()
  return { ...obj, metadata: { ...obj.metadata, namespace: ns } }
}

export type Checked = {
  /** The object to store: `obj` without unknown fields, nor ownership of them. */
  object: KubeObject
  warnings: string[]
}

/**
 * Runs the size and schema checks; throws 413, 400 (Strict with unknown fields) or 422 with the
 * causes; returns the object to store and the warnings. `carried` are the unknown fields of the
 * stored object (see `withoutUnknownFields`): pruned like the others, never reported.
 */
export function checkObject(
  t: Target,
  obj: KubeObject,
  mode: FieldValidation,
  carried?: ReadonlySet<string>
): Checked {
  const bytes = new TextEncoder().encode(JSON.stringify(obj)).length
  if (bytes > MAX_OBJECT_BYTES)
    throw tooLarge(
      `${t.info.kind} "${obj.metadata.name ?? ''}" is too large: ${bytes} bytes of JSON exceeds the limit of ${MAX_OBJECT_BYTES} bytes (1 MiB)`
    )
  const strict = mode === 'Strict'
  const result = validateObject(t.info, t.version, obj, { strict, ...(carried ? { carried } : {}) })
  const { causes, unknownFields } = result
  if (strict && unknownFields.length > 0) throw badRequest(strictDecodingMessage(unknownFields))
  if (causes.length > 0) throw invalid(t.info.resource, targetDetails(t, obj.metadata.name), causes)
  const object = result.pruned.length > 0 ? forgetPrunedFields(obj, result.object) : obj
  return { object, warnings: mode === 'Ignore' ? [] : result.warnings }
}

/** A stored object as a write sees it, and the paths of the unknown fields pruned from it. */
export type StoredView = { object: KubeObject; pruned: string[] }

/**
 * A stored object as a write reads it: without the unknown fields an older release kept (kube
 * prunes what it reads from storage the same way), and their paths, which the write's check
 * then prunes without reporting.
 */
export function withoutUnknownFields(t: Target, stored: KubeObject): StoredView {
  const { object, pruned } = pruneUnknownFields(t.info, t.version, stored)
  if (pruned.length === 0) return { object: stored, pruned }
  return { object: forgetPrunedFields(stored, object), pruned }
}
