/**
 * A world to preview placements in, on a test hub: the inventory space `root:imw-p` with 22
 * Locations `edge-00`..`edge-21` labelled env=prod, each selecting its SyncTarget by `id`, all
 * with their mailbox (a Workspace of root:espw) but `edge-21`, and a Location `lab` (env=dev); the
 * workload space `root:wmw-p` with Namespace `app` (team=a) holding 7 ConfigMaps and
 * `kube-root-ca.crt` (system infrastructure, never sent), and Namespace `other` with one ConfigMap. `placement(name)` is an EdgePlacement
 * selecting env=prod Locations and the team=a namespaces.
 */
import { ESPW, LOCATIONS, SYNC_TARGETS, WORKSPACES } from '../../lib/apis/gvr.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { mailboxName } from '../../lib/reconcile/keys.ts'

export const INVENTORY = 'root:imw-p'
export const WORKLOAD = 'root:wmw-p'
export const EDGES = 22
export const CONFIGMAPS = 7

const CONFIGMAP = { group: '', version: 'v1', resource: 'configmaps' }
const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' }

export const edgeName = (i: number) => `edge-${String(i).padStart(2, '0')}`

const workspace = (name: string, annotations: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'tenancy.kcp.io/v1alpha1',
  kind: 'Workspace',
  metadata: { name, annotations },
})

export const placement = (name: string): KubeObject => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'EdgePlacement',
  metadata: { name },
  spec: {
    locationSelectors: [{ matchLabels: { env: 'prod' } }],
    namespaceSelector: { matchLabels: { team: 'a' } },
  },
})

/** Builds the world; the space ids of the inventory and the workload. */
export async function buildPreviewWorld(
  client: HubClient
): Promise<{ inventory: string; workload: string }> {
  await client.create('root', WORKSPACES, workspace('imw-p'))
  await client.create('root', WORKSPACES, workspace('wmw-p'))
  const inventory = (await client.space(INVENTORY)).id
  const workload = (await client.space(WORKLOAD)).id
  const location = (name: string, env: string) => ({
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'Location',
    metadata: { name, labels: { env } },
    spec: {
      resource: { group: 'edge.kcp.io', version: 'v1alpha1', resource: 'synctargets' },
      instanceSelector: { matchLabels: { id: name } },
    },
  })
  for (let i = 0; i < EDGES; i++) {
    const name = edgeName(i)
    await client.create(INVENTORY, LOCATIONS, location(name, 'prod'))
    const st = await client.create(INVENTORY, SYNC_TARGETS, {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'SyncTarget',
      metadata: { name, labels: { id: name } },
    })
    if (i < EDGES - 1) {
      const annotations = { 'edge.kcp.io/sync-target-name': name }
      const mailbox = mailboxName(inventory, st.metadata.uid ?? '')
      await client.create(ESPW, WORKSPACES, workspace(mailbox, annotations))
    }
  }
  await client.create(INVENTORY, LOCATIONS, location('lab', 'dev'))
  const ns = (name: string, labels: Record<string, string>) =>
    client.create(WORKLOAD, NAMESPACES, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name, labels },
    })
  await ns('app', { team: 'a' })
  await ns('other', { team: 'b' })
  const cm = (namespace: string, name: string) =>
    client.create(WORKLOAD, CONFIGMAP, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace },
      data: { k: name },
    })
  for (let i = 0; i < CONFIGMAPS; i++) await cm('app', `cm-${i}`)
  await cm('other', 'elsewhere')
  await cm('app', 'kube-root-ca.crt')
  return { inventory, workload }
}
