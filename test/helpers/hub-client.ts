/**
 * An in-process test hub with a hub client on it (field manager `test`), and an EdgePlacement
 * `name` in space `root` selecting the locations labelled env=prod: the start of the tests that
 * write placement status through the client.
 */
import { EDGE_PLACEMENTS } from '../../lib/apis/gvr.ts'
import { createHubClient, type HubClient } from '../../lib/hub/client.ts'
import { createTestHub } from './hub.ts'

/** A fresh test hub and a client acting as field manager `test`; the caller closes the hub. */
export async function hubWithClient() {
  const hub = await createTestHub()
  return { hub, client: createHubClient(hub.deps, { fieldManager: 'test' }) }
}

/** Creates EdgePlacement `name` in space `root`, selecting env=prod locations. */
export const createProdPlacement = (client: HubClient, name: string) =>
  client.create('root', EDGE_PLACEMENTS, {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'EdgePlacement',
    metadata: { name },
    spec: { locationSelectors: [{ matchLabels: { env: 'prod' } }] },
  })
