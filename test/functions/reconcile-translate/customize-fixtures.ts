/**
 * Fixtures for the customization tests of the translate step: an in-process hub with one inventory
 * space (SyncTargets and Locations with labels and annotations as parameters), one workload space,
 * object builders, a converge helper running every step over every key twice (as the resync
 * would), and readers of a mailbox's copies (through the HTTP API) and of its manifest hashes.
 */
import { buildControllers } from '../../../functions/controllers.ts'
import {
  CUSTOMIZERS,
  EDGE_PLACEMENTS,
  ESPW,
  LOCATIONS,
  SYNC_TARGETS,
  WORKSPACES,
} from '../../../lib/apis/gvr.ts'
import { createHubClient, type HubClient } from '../../../lib/hub/client.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { silentLogger } from '../../../lib/log.ts'
import { runKeys } from '../../../lib/reconcile/run.ts'
import type { Controller } from '../../../lib/reconcile/types.ts'
import { BASE, createTestHub, type TestHub } from '../../helpers/hub.ts'

export const IMW = 'root:imw'
export const WS = 'root:wmw-c'
export const NS = 'app'
export const CM = { group: '', version: 'v1', resource: 'configmaps' }
export const DEPLOY = { group: 'apps', version: 'v1', resource: 'deployments' }
export { CUSTOMIZERS, EDGE_PLACEMENTS, LOCATIONS }

export type Fixture = {
  hub: TestHub
  client: HubClient
  controllers: Controller[]
}

const EDGE = 'edge.kcp.io/v1alpha1'
const EXPAND = { 'edge.kcp.io/expand-parameters': 'true' }

export function location(
  name: string,
  labels: Record<string, string>,
  annotations: Record<string, string> = {}
): KubeObject {
  return {
    apiVersion: EDGE,
    kind: 'Location',
    metadata: { name, labels: { ...labels, loc: name }, annotations },
    spec: {
      resource: { group: 'edge.kcp.io', version: 'v1alpha1', resource: 'synctargets' },
      instanceSelector: { matchLabels: { id: name } },
    },
  }
}

export function customizer(
  name: string,
  replacements: { path: string; value: string }[],
  expand = true
): KubeObject {
  return {
    apiVersion: EDGE,
    kind: 'Customizer',
    metadata: { name, namespace: NS, ...(expand ? { annotations: EXPAND } : {}) },
    replacements,
  }
}

export function configMap(
  name: string,
  data: Record<string, string>,
  annotations: Record<string, string> = {}
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: NS, annotations },
    data,
  }
}

export function deployment(name: string, annotations: Record<string, string>): KubeObject {
  const labels = { app: name }
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: NS, annotations },
    spec: {
      replicas: 1,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          containers: [
            { name: 'web', image: 'nginx:1', env: [{ name: 'WHERE', value: 'in %(env) env' }] },
          ],
        },
      },
    },
  }
}

export const expandAnnotation = EXPAND
export const customizerAnnotation = (ref: string) => ({ 'edge.kcp.io/customizer': ref })

export async function createFixture(
  locations: readonly KubeObject[],
  placementSpec: Record<string, unknown>
): Promise<Fixture> {
  const hub = await createTestHub()
  const client = createHubClient(hub.deps, { fieldManager: 'test' })
  const controllers = buildControllers(hub.deps, BASE)
  for (const ws of ['imw', 'wmw-c']) {
    await client.create('root', WORKSPACES, {
      apiVersion: 'tenancy.kcp.io/v1alpha1',
      kind: 'Workspace',
      metadata: { name: ws },
      spec: {},
    })
  }
  for (const loc of locations) {
    const name = loc.metadata.name ?? ''
    await client.create(IMW, SYNC_TARGETS, {
      apiVersion: EDGE,
      kind: 'SyncTarget',
      metadata: { name, labels: { id: name } },
    })
    await client.create(IMW, LOCATIONS, loc)
  }
  await client.create(
    WS,
    { group: '', version: 'v1', resource: 'namespaces' },
    {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: NS, labels: { app: 'custom' } },
    }
  )
  await client.create(WS, EDGE_PLACEMENTS, {
    apiVersion: EDGE,
    kind: 'EdgePlacement',
    metadata: { name: 'ep-custom' },
    spec: placementSpec as KubeObject['spec'],
  })
  return { hub, client, controllers }
}

/** Runs every step over every key it owns, twice; returns the translate outcomes of the second. */
export async function converge(f: Fixture): Promise<string[]> {
  let outcomes: string[] = []
  for (let pass = 0; pass < 2; pass++) {
    outcomes = []
    for (const c of f.controllers) {
      const page = await c.listKeys(undefined, 10_000)
      for (const r of await runKeys(c, page.keys, silentLogger)) {
        if (!r.ok) throw new Error(`${c.name} ${r.key}: ${r.outcome}`)
        if (c.name === 'translate') outcomes.push(r.outcome)
      }
    }
  }
  return outcomes
}

export async function mailboxPath(f: Fixture, target: string): Promise<string> {
  const st = await f.client.get(IMW, SYNC_TARGETS, target)
  const imw = await f.client.space(IMW)
  return `${ESPW}:${imw.id}-mb-${st?.metadata.uid}`
}

/** A copy in a mailbox, read through the HTTP API (undefined when absent). */
export async function copyOf(
  f: Fixture,
  target: string,
  kind: 'configmaps' | 'deployments',
  name: string
): Promise<KubeObject | undefined> {
  const api = kind === 'configmaps' ? 'api/v1' : 'apis/apps/v1'
  const mb = await mailboxPath(f, target)
  const res = await f.hub.call('GET', `/clusters/${mb}/${api}/namespaces/${NS}/${kind}/${name}`)
  return res.status === 200 ? (res.body as KubeObject) : undefined
}

/** The body hash of a copy in a mailbox's manifest. */
export async function hashOf(f: Fixture, target: string, resource: string, name: string) {
  const mb = await f.client.space(await mailboxPath(f, target))
  const manifest = await f.hub.deps.projections.getManifest(mb.id)
  return manifest?.entries.find((e) => e.resource === resource && e.name === name)?.hash
}

/** The Warning Events of the workload space's namespace, with a reason among `reasons`. */
export async function eventsOf(f: Fixture, reasons: readonly string[]): Promise<KubeObject[]> {
  const res = await f.hub.call('GET', `/clusters/${WS}/api/v1/namespaces/${NS}/events`)
  return (res.body.items as KubeObject[]).filter((e) => reasons.includes(String(e.reason)))
}

/** The placement's Translated condition. */
export async function translated(f: Fixture): Promise<Record<string, unknown> | undefined> {
  const ep = await f.client.get(WS, EDGE_PLACEMENTS, 'ep-custom')
  const conditions = (ep?.status as { conditions?: Record<string, unknown>[] } | undefined)
    ?.conditions
  return conditions?.find((c) => c.type === 'Translated')
}
