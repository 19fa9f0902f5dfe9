/**
 * The key layout of the single table. Objects: pk `o#<cluster>#<group>/<resource>`, sk
 * `<namespace>/<name>` (namespace '' for cluster-scoped), index g1 `o#<group>/<resource>` /
 * `<cluster>#<namespace>/<name>`. Change log: pk `l#<cluster>#<group>/<resource>`, sk the rv
 * zero-padded to 20 digits, index g1 `l#<group>/<resource>` / the same padded rv. Body chunks: pk
 * `blob#<rv>`, sk the chunk index. Key-value entries: pk `kv#<ns>`, sk the key. Counters: pk `meta`,
 * sk `rv` (the resourceVersion counter) and `compacted` (the change-log watermark). Projections
 * (projection-types.ts): a content-addressed body is pk `pb#<hash>`, a mailbox's manifest pk
 * `mf#<mailbox>`, both with sk `-` and outside the index; their change-log entries use the ordinary
 * log partitions and index keys. Key parts are checked here: none may contain `#` or `/`, since
 * those separate them.
 */
import { badRequest } from '../errors.ts'
import type { CollectionRef, ObjectKey } from './types.ts'

export const META_PK = 'meta'
export const RV_SK = 'rv'
export const WATERMARK_SK = 'compacted'

const RV_DIGITS = 20

/** A resourceVersion as a sort key: zero-padded so string order is numeric order. */
export function padRv(rv: number): string {
  return String(rv).padStart(RV_DIGITS, '0')
}

function checkPart(what: string, value: string, allowEmpty: boolean): void {
  if (!allowEmpty && value === '') throw badRequest(`${what} must not be empty`)
  if (value.includes('#') || value.includes('/')) {
    throw badRequest(`${what} "${value}" must not contain "#" or "/"`)
  }
}

/** Throws BadRequest unless every part of the key can be stored. */
export function checkObjectKey(key: ObjectKey): void {
  checkPart('cluster', key.cluster, false)
  if (key.cluster === '*') throw badRequest('an object cannot be addressed in cluster "*"')
  checkPart('group', key.group, true)
  checkPart('resource', key.resource, false)
  checkPart('namespace', key.namespace, true)
  checkPart('name', key.name, false)
}

/** Throws BadRequest unless the collection reference can be queried. */
export function checkCollection(ref: CollectionRef): void {
  checkPart('cluster', ref.cluster, false)
  checkPart('group', ref.group, true)
  checkPart('resource', ref.resource, false)
  if (ref.namespace !== undefined) checkPart('namespace', ref.namespace, true)
}

const gr = (group: string, resource: string) => `${group}/${resource}`

export const objectPk = (cluster: string, group: string, resource: string) =>
  `o#${cluster}#${gr(group, resource)}`
export const objectSk = (namespace: string, name: string) => `${namespace}/${name}`
export const objectGsiPk = (group: string, resource: string) => `o#${gr(group, resource)}`
export const objectGsiSk = (key: ObjectKey) => `${key.cluster}#${objectSk(key.namespace, key.name)}`

export const logPk = (cluster: string, group: string, resource: string) =>
  `l#${cluster}#${gr(group, resource)}`
export const logGsiPk = (group: string, resource: string) => `l#${gr(group, resource)}`

export const blobPk = (rv: number) => `blob#${rv}`
export const chunkSk = (index: number) => String(index).padStart(4, '0')

export const kvPk = (ns: string) => `kv#${ns}`

/** The sort key of the single-item partitions (projection bodies and manifests). */
export const SINGLE_SK = '-'
export const bodyPk = (hash: string) => `pb#${hash}`
export const manifestPk = (mailbox: string) => `mf#${mailbox}`

/** The object head's primary key. */
export function headKey(key: ObjectKey): { pk: string; sk: string } {
  return {
    pk: objectPk(key.cluster, key.group, key.resource),
    sk: objectSk(key.namespace, key.name),
  }
}

/** The change-log partition an object's head partition writes to (`o#…` -> `l#…`). */
export function logPkForHead(headPk: string): string {
  return `l#${headPk.slice(2)}`
}
