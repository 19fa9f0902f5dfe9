/**
 * A resolved operation target: which space, which resource (with its registry entry), which
 * version the client speaks, and optionally the namespace and name. Helpers here turn a target into
 * the store key, convert stored objects to the requested version (conversion "None": only
 * `apiVersion` changes), and build the messages' group/kind details.
 */

import { apiVersionOf } from '../kube/request-path.ts'
import type { ResourceInfo } from '../kube/resource-info.ts'
import type { KubeObject } from '../kube/types.ts'
import type { ObjectKey } from '../store/types.ts'
import type { Space } from './spaces.ts'

export type Target = {
  space: Space
  info: ResourceInfo
  /** The version the client addressed. */
  version: string
  namespace?: string
  name?: string
}

export function objectKey(t: Target, name: string, namespace = t.namespace ?? ''): ObjectKey {
  return {
    cluster: t.space.id,
    group: t.info.group,
    resource: t.info.resource,
    namespace: t.info.namespaced ? namespace : '',
    name,
  }
}

/** The object as served at `version` (conversion None: the stored body with a new apiVersion). */
export function atVersion(obj: KubeObject, group: string, version: string): KubeObject {
  const apiVersion = apiVersionOf(group, version)
  if (obj.apiVersion === apiVersion) return obj
  return { ...obj, apiVersion }
}

export function servedAt(t: Target, obj: KubeObject): KubeObject {
  return atVersion(obj, t.info.group, t.version)
}

/** The object as stored: at the resource's storage version. */
export function storedAt(t: Target, obj: KubeObject): KubeObject {
  return atVersion(obj, t.info.group, t.info.storageVersion)
}

export function targetDetails(
  t: Target,
  name?: string
): { group: string; kind: string; name?: string } {
  const d: { group: string; kind: string; name?: string } = {
    group: t.info.group,
    kind: t.info.resource,
  }
  const n = name ?? t.name
  if (n !== undefined) d.name = n
  return d
}
