/**
 * A fleet for the dashboard's cost tests, over the in-process hub with every request's store
 * requests recorded through the injected budget (lib/budget/: `onEnd` gets each invocation's
 * figures): an inventory space with `edges` SyncTargets behind one Location (fleet=yes), a
 * workload space whose EdgePlacement `wide` sends a Namespace and a ConfigMap to all of them
 * (the where step's slices), and every edge holding both copies, reported ready, its agent live —
 * the case where a scan for edges needing attention finds none and reads on. The SyncTargets and
 * the placement go through the hub and the where step; the mailboxes (their spaces, manifests,
 * copy states and leases) are written straight to the stores, as the mailbox and translate steps
 * and the agents' reports would leave them, since running those for a thousand edges takes
 * minutes.
 */
import { buildControllers } from '../../../functions/controllers.ts'
import {
  EDGE_PLACEMENTS,
  ESPW,
  LOCATIONS,
  SYNC_TARGETS,
  WORKSPACES,
} from '../../../lib/apis/gvr.ts'
import type { InvocationStats } from '../../../lib/budget/invocation.ts'
import { renewLease } from '../../../lib/edge/lease.ts'
import { createHubClient, type Gvr } from '../../../lib/hub/client.ts'
import { ensureSpace } from '../../../lib/hub/spaces.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { silentLogger } from '../../../lib/log.ts'
import { mapLimit } from '../../../lib/map-limit.ts'
import { mailboxName } from '../../../lib/reconcile/keys.ts'
import { runKeys } from '../../../lib/reconcile/run.ts'
import type { Controller } from '../../../lib/reconcile/types.ts'
import type { DesiredEntry, ManifestWriteOutcome } from '../../../lib/store/projection-types.ts'
import { BASE, createTestHub } from '../../helpers/hub.ts'

export const FLEET_INVENTORY = 'root:fleet'
export const FLEET_SPACE = 'root:fleet-ws'

const NS: Gvr = { group: '', version: 'v1', resource: 'namespaces' }
const CM: Gvr = { group: '', version: 'v1', resource: 'configmaps' }

const namespace: KubeObject = {
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'app', labels: { team: 'app' } },
}
const configMap: KubeObject = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cfg', namespace: 'app' },
  data: { a: '1' },
}

const syncTarget = (name: string): KubeObject => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'SyncTarget',
  metadata: { name, labels: { fleet: 'yes' } },
})

/** Edge names in column order: e0000, e0001, ... */
export const edgeName = (i: number) => `e${String(i).padStart(4, '0')}`

export type Fleet = Awaited<ReturnType<typeof createFleet>>

export async function createFleet(edges: number) {
  const stats: InvocationStats[] = []
  const hub = await createTestHub({ budget: { mode: 'strict', onEnd: (s) => stats.push(s) } })
  const client = createHubClient(hub.deps, { fieldManager: 'test' })
  for (const name of ['fleet', 'fleet-ws'])
    await client.create('root', WORKSPACES, {
      apiVersion: 'tenancy.kcp.io/v1alpha1',
      kind: 'Workspace',
      metadata: { name },
    })
  const names = Array.from({ length: edges }, (_, i) => edgeName(i))
  const uids = await mapLimit(names, 16, async (name) => {
    const st = await client.create(FLEET_INVENTORY, SYNC_TARGETS, syncTarget(name))
    return st.metadata.uid ?? ''
  })
  await client.create(FLEET_INVENTORY, LOCATIONS, {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'Location',
    metadata: { name: 'all', labels: { fleet: 'yes' } },
    spec: {
      resource: { group: 'edge.kcp.io', version: 'v1alpha1', resource: 'synctargets' },
      instanceSelector: { matchLabels: { fleet: 'yes' } },
    },
  })
  await client.create(FLEET_SPACE, NS, namespace)
  await client.create(FLEET_SPACE, CM, configMap)
  await client.create(FLEET_SPACE, EDGE_PLACEMENTS, {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'EdgePlacement',
    metadata: { name: 'wide' },
    spec: {
      locationSelectors: [{ matchLabels: { fleet: 'yes' } }],
      namespaceSelector: { matchLabels: { team: 'app' } },
    },
  })
  const where = buildControllers(hub.deps, BASE).find((c) => c.name === 'where') as Controller
  for (let pass = 0; pass < 2; pass++) {
    const page = await where.listKeys(undefined, 10_000)
    for (const r of await runKeys(where, page.keys, silentLogger))
      if (!r.ok) throw new Error(`where ${r.key}: ${r.outcome}`)
  }
  const inventory = await client.space(FLEET_INVENTORY)
  const workload = await client.space(FLEET_SPACE)
  const sources = [{ space: workload.id, placements: ['wide'] }]
  const desired: DesiredEntry[] = [
    { group: '', version: 'v1', resource: 'namespaces', namespace: '', name: 'app' },
    { group: '', version: 'v1', resource: 'configmaps', namespace: 'app', name: 'cfg' },
  ].map((k, i) => ({ ...k, body: i === 0 ? namespace : configMap, sources }))
  const { kv, projections } = hub.deps
  const spaces = await mapLimit(uids, 16, (uid) =>
    ensureSpace(kv, `${ESPW}:${mailboxName(inventory.id, uid)}`)
  )
  const mailboxes = spaces.map((s) => s.id)
  const now = new Date()
  const written: ManifestWriteOutcome[] = []
  for (let i = 0; i < mailboxes.length; i += 100)
    written.push(
      ...(await projections.writeManifests(
        mailboxes
          .slice(i, i + 100)
          .map((mailbox) => ({ mailbox, w: { desired, expectedVersion: null, now } }))
      ))
    )
  await mapLimit([...mailboxes.keys()], 16, async (i) => {
    const mailbox = mailboxes[i] ?? ''
    const outcome = written[i]
    if (!outcome?.ok) throw new Error(`manifest of ${mailbox} not written`)
    await projections.putCopyStates(
      mailbox,
      outcome.result.manifest.entries.map((e) => ({
        key: e,
        state: { uid: e.uid, status: {}, observedGeneration: e.generation },
        expectedRv: null,
      }))
    )
    await renewLease(kv, inventory.id, uids[i] ?? '', Date.now())
  })
  return { hub, client, stats, mailboxes, close: () => hub.close() }
}
