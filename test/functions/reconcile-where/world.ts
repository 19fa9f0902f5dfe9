/**
 * What the where step's tests build on a test hub: workspaces under root (by name, answering their
 * space ids), and Locations and SyncTargets as an inventory holds them (a Location selecting its
 * SyncTarget by an `id` label unless told otherwise).
 */
import { WORKSPACES } from '../../../lib/apis/gvr.ts'
import type { HubClient } from '../../../lib/hub/client.ts'
import type { LabelSelector } from '../../../lib/kube/label-selector.ts'

/** Creates `root:<name>` for each name; their space ids by name. */
export async function createSpaces(
  client: HubClient,
  names: readonly string[]
): Promise<Record<string, string>> {
  const ids: Record<string, string> = {}
  for (const name of names) {
    await client.create('root', WORKSPACES, {
      apiVersion: 'tenancy.kcp.io/v1alpha1',
      kind: 'Workspace',
      metadata: { name },
    })
    ids[name] = (await client.space(`root:${name}`)).id
  }
  return ids
}

export const location = (
  name: string,
  labels: Record<string, string>,
  instance?: LabelSelector
) => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'Location',
  metadata: { name, labels },
  spec: {
    resource: { group: 'edge.kcp.io', version: 'v1alpha1', resource: 'synctargets' },
    instanceSelector: instance ?? { matchLabels: { id: name } },
  },
})

export const syncTarget = (name: string, labels: Record<string, string> = { id: name }) => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'SyncTarget',
  metadata: { name, labels },
})
