/**
 * What no update, patch or apply may change: the object's kind and apiVersion (the group is the
 * resource's; the version the one the client addressed), its name and namespace (those of the URL
 * and of the stored object), its uid, and — outside deletion — its deletionTimestamp. kube answers
 * a different kind, apiVersion, name or namespace with 400 BadRequest (the decoding and name
 * checks of its update and patch handlers) and a changed uid or deletionTimestamp with 422 Invalid
 * ("field is immutable", ValidateObjectMetaUpdate); new finalizers on an object being deleted are
 * 422 too, as is metadata whose JSON types are wrong (validate-meta-types.ts). Fields the server owns and kube silently restores (creationTimestamp, generation) are
 * carried over by metadata.ts instead.
 */
import { invalid, type StatusCause } from '../errors.ts'
import { apiVersionOf } from '../kube/request-path.ts'
import type { KubeObject } from '../kube/types.ts'
import { metadataTypeCauses } from '../kube/validate-meta-types.ts'
import { apiVersionMismatch, kindMismatch, nameMismatch, namespaceMismatch } from './mismatch.ts'
import { type Target, targetDetails } from './target.ts'

const show = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : String(v))

function immutable(field: string, value: unknown): StatusCause {
  return {
    reason: 'FieldValueInvalid',
    field,
    message: `Invalid value: ${show(value)}: field is immutable`,
  }
}

/**
 * kube's checkName: the name and namespace a body gives are those of the object the URL names
 * (`required`: the body must give the name).
 */
export function checkNaming(
  t: Target,
  current: KubeObject,
  meta: { name?: unknown; namespace?: unknown },
  required: boolean
): void {
  const name = current.metadata.name ?? ''
  if ((required || meta.name !== undefined) && meta.name !== name)
    throw nameMismatch(show(meta.name ?? ''), name)
  if (
    t.info.namespaced &&
    meta.namespace !== undefined &&
    meta.namespace !== current.metadata.namespace
  )
    throw namespaceMismatch()
}

/** Throws when `next` (what the client's write produced) differs from `current` in identity. */
export function checkIdentity(
  t: Target,
  current: KubeObject,
  next: KubeObject,
  sub: 'status' | undefined
): void {
  const expected = apiVersionOf(t.info.group, t.version)
  if (next.kind !== t.info.kind)
    throw kindMismatch(show(next.kind), t.info.kind, 'the kind of an object cannot be changed')
  if (next.apiVersion !== expected) throw apiVersionMismatch(show(next.apiVersion), expected)
  const name = current.metadata.name ?? ''
  const meta = next.metadata
  // Types first: the server-owned fields are merged into these maps next (metadata.ts).
  const typeErrors = metadataTypeCauses(meta as Record<string, unknown>)
  if (typeErrors.length > 0) throw invalid(t.info.resource, targetDetails(t, name), typeErrors)
  checkNaming(t, current, meta, false)
  const causes: StatusCause[] = []
  if (meta.uid !== undefined && meta.uid !== '' && meta.uid !== current.metadata.uid)
    causes.push(immutable('metadata.uid', meta.uid))
  const deleting = current.metadata.deletionTimestamp
  if (!deleting && meta.deletionTimestamp !== undefined && meta.deletionTimestamp !== null)
    causes.push(immutable('metadata.deletionTimestamp', meta.deletionTimestamp))
  // A status write keeps the stored metadata otherwise (metadata.ts takeStatus).
  if (deleting && sub !== 'status') {
    const had = new Set(current.metadata.finalizers ?? [])
    const added = (Array.isArray(meta.finalizers) ? meta.finalizers : []).filter((f) => !had.has(f))
    if (added.length > 0)
      causes.push({
        reason: 'FieldValueForbidden',
        field: 'metadata.finalizers',
        message: `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers ${JSON.stringify(added)}`,
      })
  }
  if (causes.length > 0) throw invalid(t.info.resource, targetDetails(t, name), causes)
}

/**
 * An apply configuration names its object: its kind, apiVersion, name and namespace are the
 * URL's, its metadata has the right types, and a uid it sets is the live object's (`live`
 * undefined when there is none yet).
 */
export function checkAppliedIdentity(
  t: Target,
  applied: KubeObject,
  live: KubeObject | undefined
): void {
  const named: KubeObject = {
    apiVersion: apiVersionOf(t.info.group, t.version),
    kind: t.info.kind,
    metadata: {
      name: t.name ?? '',
      ...(t.namespace !== undefined ? { namespace: t.namespace } : {}),
      ...(live?.metadata.uid ? { uid: live.metadata.uid } : {}),
    },
  }
  const meta = applied.metadata && typeof applied.metadata === 'object' ? applied.metadata : {}
  checkIdentity(t, named, { ...applied, metadata: meta }, 'status')
}
