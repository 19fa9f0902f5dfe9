/**
 * Identity helpers the agent's files share: the key of an object (group, resource, namespace and
 * name; the version is left out so a version change does not make an object look new), the
 * apiVersion of a group/version, the protocol ObjectRef of an entry, a stable content hash
 * (sha256 of canonical JSON) used for every "did this change since last time" question, and the
 * kcp "system" metadata keys (`kcp.io/...`, `*.kcp.io/...`, but not `edge.kcp.io/...`) that are
 * the center's business and never travel to or from the edge.
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

export function isSystemKey(key: string): boolean {
  if (key.startsWith('edge.kcp.io/')) return false
  return key.startsWith('kcp.io/') || key.includes('.kcp.io/')
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** Runs `fn` over `items` with at most `limit` calls in flight; results keep the input order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>
): Promise<R[]> {
  const out: R[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const i = next++
      out[i] = await fn(items[i] as T)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return out
}
