/**
 * What connected edge agents leave behind in the center for tests that run the reconcile steps in
 * process and play the edges' part themselves: each poll marks its mailbox served at the
 * manifest version it was answered with (functions/edge-api/desired.ts). A test whose edges are
 * meant to hold what was placed calls this after the steps ran; without it every mailbox counts
 * as one whose agent never connected, and a leaving copy is dropped at once instead of waiting
 * for the edge (lib/deletion/tombstones.ts).
 */
import { ESPW, WORKSPACES } from '../../lib/apis/gvr.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import type { ProjectionStore } from '../../lib/store/projection-types.ts'

/** Marks every mailbox served at its current manifest version, as if its agent had polled. */
export async function agentsPolled(client: HubClient, projections: ProjectionStore): Promise<void> {
  for (const ws of await client.list(ESPW, WORKSPACES)) {
    const space = await client.space(`${ESPW}:${ws.metadata.name}`)
    const manifest = await projections.getManifest(space.id)
    if (manifest) await projections.markServed(space.id, manifest.version)
  }
}
