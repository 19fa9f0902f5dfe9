/**
 * renderProjected: the object a manifest entry stands for, as clients of the mailbox space see it.
 * The stored body (shared by every copy with the same content) plus what is particular to the
 * copy: `apiVersion` from the entry's group and version, name and namespace from the entry's key,
 * and metadata uid, resourceVersion, creationTimestamp, generation and the `kcp.io/cluster`
 * annotation naming the mailbox. Pure and deterministic; the result is a deep copy, so callers may
 * change it without touching the cached body.
 */
import { CLUSTER_ANNOTATION, type KubeObject, type ObjectMeta } from '../kube/types.ts'
import type { RenderProjected } from './projection-types.ts'

export const renderProjected: RenderProjected = (mailbox, entry, body) => {
  const copy = structuredClone(body) as KubeObject
  const metadata: ObjectMeta = {
    ...copy.metadata,
    name: entry.name,
    uid: entry.uid,
    resourceVersion: String(entry.rv),
    creationTimestamp: entry.created,
    generation: entry.generation,
    annotations: { ...copy.metadata?.annotations, [CLUSTER_ANNOTATION]: mailbox },
  }
  if (entry.namespace) metadata.namespace = entry.namespace
  else delete metadata.namespace
  const apiVersion = entry.group ? `${entry.group}/${entry.version}` : entry.version
  return { ...copy, apiVersion, metadata }
}
