/**
 * What the agent writes on every object it applies, and what makes a live object its own.
 *
 * The marker: the `edge.kcp.io/downsynced: "true"` annotation, the `edge.kcp.io/agent`
 * annotation naming the agent (its ownership record, `<namespace>/<name>`, see owned-keeper.ts),
 * and the server-side-apply field manager `edgeplane-agent`. A marker is never proof on its own:
 * edge controllers copy annotations onto the objects they make (KubeStellar's ReplicaSet-deletion
 * loop, #900), and anyone can write them. Proof is the ownership record: an entry with the uid the
 * edge gave the object. The marker only settles one case the record cannot: a pending entry,
 * written before a create, whose uid the agent did not get to record (a crash, a lost answer); the
 * object under that key is the agent's when it carries the whole marker with this agent's name —
 * the annotations and a field-manager entry of operation Apply, which a controller copying
 * metadata does not produce.
 */
import { DOWNSYNCED_ANNOTATION } from '../edge/protocol.ts'
import type { KubeObject } from '../kube/types.ts'
import type { OwnedRecord } from './ownership.ts'

export const FIELD_MANAGER = 'edgeplane-agent'
export const AGENT_ANNOTATION = 'edge.kcp.io/agent'

/** The marker's annotations: only the agent writes them (desired bodies' values are dropped). */
export const MARKER_ANNOTATIONS: ReadonlySet<string> = new Set([
  DOWNSYNCED_ANNOTATION,
  AGENT_ANNOTATION,
])

/** The marker's annotations as the agent named `identity` applies them (none: downsynced only). */
export const markerAnnotations = (identity?: string): Record<string, string> => ({
  [DOWNSYNCED_ANNOTATION]: 'true',
  ...(identity ? { [AGENT_ANNOTATION]: identity } : {}),
})

/** The identity the agent writes in AGENT_ANNOTATION: its record's namespace and name. */
export const agentIdentity = (namespace: string, recordName: string) => `${namespace}/${recordName}`

/** The live object carries the whole marker of the agent named `identity`. */
export function markedBy(live: KubeObject, identity: string): boolean {
  const m = live.metadata
  return (
    m.annotations?.[DOWNSYNCED_ANNOTATION] === 'true' &&
    m.annotations?.[AGENT_ANNOTATION] === identity &&
    (m.managedFields ?? []).some((f) => f.manager === FIELD_MANAGER && f.operation === 'Apply')
  )
}

/**
 * Whose a live object is, given the record's entry under its key:
 * - `ours`: the entry holds the live uid;
 * - `adopt`: the entry is pending (no uid) and the object carries this agent's marker;
 * - `foreign`: no entry, an entry with another uid (ours is gone; this is someone else's, marker
 *   or not), or a pending entry and an object without the marker.
 */
export function ownershipOf(
  rec: OwnedRecord | undefined,
  live: KubeObject,
  identity: string
): 'ours' | 'adopt' | 'foreign' {
  if (!rec) return 'foreign'
  if (rec.uid !== undefined) return rec.uid === live.metadata.uid ? 'ours' : 'foreign'
  return markedBy(live, identity) ? 'adopt' : 'foreign'
}
