/**
 * Validation of an object about to be written: the request body must be a kube object of the
 * addressed kind, in the addressed namespace, and pass the resource's schema. fieldValidation
 * decides what unknown fields do: Strict rejects them (400, kube's strict decoding error), Warn reports them as warnings, Ignore
 * drops the warnings.
 */
import { badRequest, invalid, tooLarge } from '../errors.ts'
import { apiVersionOf } from '../kube/request-path.ts'
import type { KubeObject } from '../kube/types.ts'
import { strictDecodingMessage, validateObject } from '../kube/validate.ts'
import { MAX_OBJECT_BYTES } from '../store/body-codec.ts'
import type { FieldValidation } from './options.ts'
import { type Target, targetDetails } from './target.ts'

/** Checks the body's shape and identity against the target; returns it typed. */
export function asKubeObject(t: Target, body: unknown): KubeObject {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw badRequest('the request body must be a JSON or YAML object')
  const obj = body as KubeObject
  const expected = apiVersionOf(t.info.group, t.version)
  if (typeof obj.kind !== 'string' || obj.kind === '')
    throw badRequest("Object 'Kind' is missing in the request body")
  if (obj.apiVersion !== expected)
    throw badRequest(
      `the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${expected})`
    )
  if (obj.kind !== t.info.kind)
    throw badRequest(
      `the kind in the data (${obj.kind}) does not match the expected kind (${t.info.kind})`
    )
  if (obj.metadata === undefined) return { ...obj, metadata: {} }
  if (typeof obj.metadata !== 'object' || Array.isArray(obj.metadata) || obj.metadata === null)
    throw badRequest('metadata must be an object')
  return obj
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
  if (obj.metadata.namespace && obj.metadata.namespace !== ns)
    throw badRequest(
      'the namespace of the provided object does not match the namespace sent on the request'
    )
  return { ...obj, metadata: { ...obj.metadata, namespace: ns } }
}

/** Runs the size and schema checks; throws 413 or 422 with the causes, returns warnings. */
export function checkObject(t: Target, obj: KubeObject, mode: FieldValidation): string[] {
  const bytes = new TextEncoder().encode(JSON.stringify(obj)).length
  if (bytes > MAX_OBJECT_BYTES)
    throw tooLarge(
      `${t.info.kind} "${obj.metadata.name ?? ''}" is too large: ${bytes} bytes of JSON exceeds the limit of ${MAX_OBJECT_BYTES} bytes (1 MiB)`
    )
  const strict = mode === 'Strict'
  const { causes, warnings, unknownFields } = validateObject(t.info, t.version, obj, { strict })
  if (strict && unknownFields.length > 0) throw badRequest(strictDecodingMessage(unknownFields))
  if (causes.length > 0) throw invalid(t.info.resource, targetDetails(t, obj.metadata.name), causes)
  return mode === 'Ignore' ? [] : warnings
}
