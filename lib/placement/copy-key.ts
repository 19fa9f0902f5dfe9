/**
 * The key of a source object's copy in a mailbox: group, resource, namespace ('' for a
 * cluster-scoped object) and name; the version is left out, so a copy keeps its key when the
 * version chosen for it changes. The key a manifest entry and a copy's state are found by.
 */
import type { CopyKey } from '../store/projection-types.ts'
import type { SourceObject } from './types.ts'

export function copyKeyOf(o: SourceObject): CopyKey {
  const m = o.object.metadata
  const namespace = o.namespaced ? (m.namespace ?? '') : ''
  return { group: o.group, resource: o.resource, namespace, name: m.name ?? '' }
}
