/**
 * The agents' ownership records as the tests see them in the edge cluster: all entries of a
 * record (its shard ConfigMaps `<name>-<i>` in AGENT_NS, read with the edge's own API, not the
 * agent's code), a shard as stored, and a record written by hand — as a crashed agent would have
 * left it, or as an operator might break it.
 */
import type { KubeObject } from '../../../lib/kube/types.ts'
import { AGENT_NS, cmRef, type Edge } from './fixture.ts'

type Entries = Record<string, { uid?: string; pendingSince?: string; [k: string]: unknown }>

/** Every entry of record `name`, merged over its shards. */
export async function recordEntries(edge: Edge, name: string): Promise<Entries> {
  const list = await edge.call('GET', `/api/v1/namespaces/${AGENT_NS}/configmaps`)
  const out: Entries = {}
  const shard = new RegExp(`^${name}-\\d+$`)
  for (const cm of list.body.items as KubeObject[])
    if (shard.test(cm.metadata.name ?? ''))
      Object.assign(out, JSON.parse((cm.data as { objects: string }).objects))
  return out
}

export const shardOf = (edge: Edge, name: string, index = 0) =>
  edge.get(cmRef(AGENT_NS, `${name}-${index}`))

/** Writes shard 0 of record `name` with `data` (created, or replaced whatever it holds). */
export async function putShard(edge: Edge, name: string, data: Record<string, string>) {
  const path = `/api/v1/namespaces/${AGENT_NS}/configmaps`
  const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${name}-0` }, data }
  const live = await shardOf(edge, name)
  const r = live
    ? await edge.call('PUT', `${path}/${name}-0`, {
        ...body,
        metadata: { ...body.metadata, resourceVersion: live.metadata.resourceVersion },
      })
    : await edge.call('POST', path, body)
  if (r.status >= 300) throw new Error(`writing ${name}-0: ${r.status} ${JSON.stringify(r.body)}`)
}
