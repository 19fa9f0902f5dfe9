/**
 * Status writes to projected copies. A copy's body is shared and written only by the translator,
 * but its status is the copy's own: an update whose only difference from the rendered copy is
 * `.status` (what the status subresource produces, lib/hub/update.ts; for kinds without one, a
 * plain PUT that changes nothing else) is written as the copy's state (projection-state.ts), with
 * the copy's resourceVersion as precondition (409 when stale), keeping the associated objects and
 * problem the edge reported. Any other change is 405, pointing at the source object.
 */
import { conflict, describeTarget, methodNotAllowed, notFound } from '../errors.ts'
import type { KubeObject } from '../kube/types.ts'
import { canonicalJson } from '../patch/json-values.ts'
import { entryKey } from '../store/projection-diff.ts'
import { renderProjected } from '../store/projection-render.ts'
import { copyStateContent } from '../store/projection-state.ts'
import type { CopyState, ManifestEntry, ProjectionStore } from '../store/projection-types.ts'
import type { ObjectKey } from '../store/types.ts'

const target = (key: ObjectKey) => ({
  ...(key.group ? { group: key.group } : {}),
  kind: key.resource,
  name: key.name,
})

/** 405 for a write to a projected copy. */
export function projectedCopyError(key: ObjectKey) {
  return methodNotAllowed(
    `${describeTarget(key.resource, key.group, key.name)} is a projected copy in mailbox ${key.cluster}, written by the translator from its workload space; change the source object instead`
  )
}

/** Everything but status and what the server owns or converts. */
function withoutStatus(obj: KubeObject): string {
  const { status: _s, apiVersion: _a, metadata, ...rest } = obj
  const { managedFields: _m, resourceVersion: _r, ...meta } = metadata
  return canonicalJson({ ...rest, metadata: meta })
}

/**
 * A status write to the copy at `key`, which `entry` stands for: `obj` as the client sent it and
 * its resourceVersion precondition `expectedRv` ('' for none).
 */
export type CopyStatusWrite = {
  key: ObjectKey
  entry: ManifestEntry
  obj: KubeObject
  expectedRv: string
}

/** Writes `w.obj`'s status as the state of the copy; returns the rendered copy. */
export async function writeCopyStatus(
  projections: ProjectionStore,
  w: CopyStatusWrite
): Promise<KubeObject> {
  const { key, entry, obj, expectedRv } = w
  const mailbox = key.cluster
  const [states, bodies] = await Promise.all([
    projections.getCopyStates(mailbox, [key]),
    projections.getBodies([entry.hash]),
  ])
  const body = bodies.get(entry.hash)
  if (!body) throw notFound(key.resource, target(key))
  const stored = states.get(entryKey(key))
  const current = renderProjected(mailbox, entry, body, stored)
  if (withoutStatus(obj) !== withoutStatus(current)) throw projectedCopyError(key)
  if (expectedRv && expectedRv !== current.metadata.resourceVersion) {
    throw conflict(
      key.resource,
      target(key),
      'the object has been modified; please apply your changes to the latest version and try again'
    )
  }
  const own = stored?.uid === entry.uid ? stored : undefined
  const status = (obj.status ?? {}) as CopyState['status']
  const state: CopyState = { uid: entry.uid, status }
  if (own?.associated) state.associated = own.associated
  if (own?.problem) state.problem = own.problem
  if (copyStateContent(state) === copyStateContent(own)) return current
  const [result] = await projections.putCopyStates(mailbox, [
    { key, state, expectedRv: stored?.rv ?? null },
  ])
  if (result?.outcome === 'written')
    return renderProjected(mailbox, result.entry, body, result.state)
  if (result?.outcome === 'gone') throw notFound(key.resource, target(key))
  throw conflict(key.resource, target(key), 'the status was changed meanwhile; try again')
}
