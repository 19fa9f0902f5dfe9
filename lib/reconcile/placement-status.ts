/**
 * How a reconcile step writes its part of an EdgePlacement's status: each field has one writer,
 * and a step sends only the fields it owns as a server-side apply to the status subresource under
 * its own field manager (the table in docs/ARCHITECTURE.md, "Who writes EdgePlacement.status").
 * No read-modify-write and no retry on conflicts: the hub merges the fields into the live status,
 * keeps every other manager's, removes the ones this manager applied before and leaves out now,
 * and writes nothing when nothing changes. The configuration names the placement's uid, so a
 * placement re-created since the step read it is left to its own run (answered false).
 */
import { EDGE_PLACEMENTS } from '../apis/gvr.ts'
import type { HubClient } from '../hub/client.ts'
import type { JsonObject, KubeObject } from '../kube/types.ts'

/** The field manager of each step that writes EdgePlacement status. */
export const STATUS_MANAGERS = {
  where: 'edgeplane-where',
  translate: 'edgeplane-translate',
  summarize: 'edgeplane-summarize',
} as const

export type StatusWriter = keyof typeof STATUS_MANAGERS

/** One step's status write: `status` for the placement `ep` in space `spaceId`. */
export type PlacementStatusWrite = {
  spaceId: string
  ep: KubeObject
  writer: StatusWriter
  status: JsonObject
}

/**
 * Applies `w.status` (the writer's fields, all of them: what it leaves out it gives up) to the
 * placement `w.ep` names; true when that changed the stored placement, false when it already said
 * so or the placement is gone or re-created.
 */
export async function applyPlacementStatus(
  client: HubClient,
  w: PlacementStatusWrite
): Promise<boolean> {
  const { spaceId, ep, writer, status } = w
  const config: KubeObject = {
    apiVersion: ep.apiVersion,
    kind: ep.kind,
    metadata: {
      name: ep.metadata.name ?? '',
      ...(ep.metadata.uid ? { uid: ep.metadata.uid } : {}),
    },
    status,
  }
  const fieldManager = STATUS_MANAGERS[writer]
  const done = await client.applyStatus(spaceId, EDGE_PLACEMENTS, config, { fieldManager })
  return done?.written ?? false
}
