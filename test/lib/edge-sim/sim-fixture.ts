/**
 * A simulated edge cluster for the simulator tests, without a server: a fresh dynalite store, the
 * hub app with API-server defaults, the edge bootstrap, an in-process hub client to act as the
 * user, and a simulator driven by hand (`run()` ticks until a pass writes nothing). Job pods end
 * at once (jobDurationMs 0) so no test waits on time.
 */
import { createNodeApp } from '../../../functions/node-server.ts'
import { bootstrapEdge, edgeNode } from '../../../lib/edge-sim/bootstrap.ts'
import { createSimulator, type Simulator } from '../../../lib/edge-sim/simulator.ts'
import { createHubClient, type Gvr, type HubClient } from '../../../lib/hub/client.ts'
import type { HubDeps } from '../../../lib/hub/deps.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { silentLogger } from '../../../lib/log.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'

export const GVR = {
  deployments: { group: 'apps', version: 'v1', resource: 'deployments' },
  replicasets: { group: 'apps', version: 'v1', resource: 'replicasets' },
  statefulsets: { group: 'apps', version: 'v1', resource: 'statefulsets' },
  daemonsets: { group: 'apps', version: 'v1', resource: 'daemonsets' },
  pods: { group: '', version: 'v1', resource: 'pods' },
  services: { group: '', version: 'v1', resource: 'services' },
  jobs: { group: 'batch', version: 'v1', resource: 'jobs' },
} satisfies Record<string, Gvr>

export type SimFixture = {
  store: TestStore
  deps: HubDeps
  user: HubClient
  sim: Simulator
  /** Ticks until a pass makes no write (at most `max` passes); returns the passes run. */
  run(max?: number): Promise<number>
  list(gvr: Gvr, namespace?: string): Promise<KubeObject[]>
  get(gvr: Gvr, name: string, namespace?: string): Promise<KubeObject>
  settle(): Promise<void>
  close(): Promise<void>
}

export const NODE = edgeNode('testedge')

export async function createSimFixture(): Promise<SimFixture> {
  const store = await createTestStore()
  const { deps, settle } = createNodeApp({
    objects: store.objects,
    kv: store.kv,
    log: silentLogger,
    defaults: true,
  })
  await bootstrapEdge(deps, { node: NODE })
  const user = createHubClient(deps, { fieldManager: 'kubectl' })
  const sim = createSimulator({ deps, node: NODE, jobDurationMs: 0, log: silentLogger })
  const run = async (max = 10) => {
    for (let i = 1; i <= max; i++) {
      await settle()
      if ((await sim.tick()).writes === 0) return i
    }
    throw new Error(`the simulator still writes after ${max} passes`)
  }
  return {
    store,
    deps,
    user,
    sim,
    run,
    list: (gvr, namespace) => user.list('root', gvr, namespace ? { namespace } : {}),
    get: async (gvr, name, namespace = 'default') => {
      const obj = await user.get('root', gvr, name, namespace)
      if (!obj) throw new Error(`${gvr.resource} ${namespace}/${name} not found`)
      return obj
    },
    settle,
    close: async () => {
      await sim.stop()
      await settle()
      await store.close()
    },
  }
}

export function deployment(name: string, spec: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] },
      },
      ...spec,
    } as never,
  }
}
