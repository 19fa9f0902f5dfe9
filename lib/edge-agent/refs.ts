/**
 * Identity helpers the agent's files share: the key of an object (group, resource, namespace and
 * name; the version is left out so a version change does not make an object look new), the
 * apiVersion of a group/version, the protocol ObjectRef of an entry, a stable content hash
 * (sha256 of canonical JSON) used for every "did this change since last time" question. (The kcp
 * "system" metadata keys that never travel to or from the edge are the placement model's rule,
 * lib/placement/annotations.ts.)
 */
import { createHash } from 'node:crypto'
import type { ObjectRef } from '../edge/protocol.ts'
import { canonicalJson } from '../patch/json-values.ts'

export type Keyed = { group: string; resource: string; namespace: string; name: string }

export const refKey = (r: Keyed): string => `${r.group}/${r.resource}/${r.namespace}/${r.name}`

export const apiVersionOf = (group: string, version: string): string =>
  group === '' ? version : `${group}/${version}`

export const refOf = (r: ObjectRef): ObjectRef => ({
  group: r.group,
  version: r.version,
  resource: r.resource,
  namespace: r.namespace,
  name: r.name,
})

export const hashOf = (value: unknown): string =>
  createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 32)

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
