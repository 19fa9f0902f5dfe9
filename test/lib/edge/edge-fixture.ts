/**
 * A hub with one edge's worth of state, for the report tests: a dynalite store with a request
 * counter and an optional fault hook, the in-process app, an inventory space with a SyncTarget,
 * its mailbox space (annotated with the SyncTarget's name, as the mailbox controller does) and a
 * manifest holding a Namespace, a Deployment, a ConfigMap and the SyncerConfig `the-one` whose
 * upsync sets select ConfigMaps in `ns` and the PersistentVolume `pv1`.
 */
import { createNodeApp } from '../../../functions/node-server.ts'
import { SYNC_TARGET_NAME_ANNOTATION } from '../../../lib/apis/gvr.ts'
import type { ReportEnv } from '../../../lib/edge/apply-report.ts'
import { bootstrapHub } from '../../../lib/hub/bootstrap.ts'
import { createHubClient } from '../../../lib/hub/client.ts'
import type { Space } from '../../../lib/hub/spaces.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import type { FaultCall } from '../../../lib/store/dynamo-client.ts'
import type { DesiredEntry } from '../../../lib/store/projection-types.ts'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { createTestStore } from '../../helpers/dynalite.ts'
import { ADMIN_TOKEN, BASE } from '../../helpers/hub.ts'

export const deployment = (replicas = 1): DesiredEntry => ({
  group: 'apps',
  version: 'v1',
  resource: 'deployments',
  namespace: 'ns',
  name: 'd',
  body: {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', namespace: 'ns' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'd' } },
      template: {
        metadata: { labels: { app: 'd' } },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      },
    },
  },
})

const namespace: DesiredEntry = {
  ...{ group: '', version: 'v1', resource: 'namespaces', namespace: '', name: 'ns' },
  body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } },
}
const configMap: DesiredEntry = {
  ...{ group: '', version: 'v1', resource: 'configmaps', namespace: 'ns', name: 'c' },
  body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns' } },
}
const syncerConfig: DesiredEntry = {
  ...{ group: 'edge.kcp.io', version: 'v1alpha1', resource: 'syncerconfigs', namespace: '' },
  name: 'the-one',
  body: {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'SyncerConfig',
    metadata: { name: 'the-one' },
    spec: {
      namespaceScope: {},
      upsync: [
        { apiGroup: '', resources: ['configmaps'], namespaces: ['ns'], names: ['*'] },
        { apiGroup: '', resources: ['persistentvolumes'], names: ['pv1'] },
      ],
    },
  },
}

export const DESIRED = (replicas = 1) => [namespace, deployment(replicas), configMap, syncerConfig]

export type EdgeFixture = Awaited<ReturnType<typeof createEdgeFixture>>

export async function createEdgeFixture() {
  const counter = createRequestCounter()
  let fault: ((call: FaultCall) => Promise<void>) | undefined
  const store = await createTestStore({ counter, fault: (call) => fault?.(call) })
  const { app, deps, settle } = createNodeApp({
    objects: store.objects,
    kv: store.kv,
    projections: store.projections,
  })
  await bootstrapHub(deps, { adminToken: ADMIN_TOKEN, baseUrl: BASE })

  async function call(method: string, path: string, body?: unknown, token = ADMIN_TOKEN) {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` }
    if (body !== undefined) headers['content-type'] = 'application/json'
    const res = await app.request(`${BASE}${path}`, {
      method,
      headers,
      ...(body === undefined
        ? {}
        : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    })
    const text = await res.text()
    let parsed: any = text
    try {
      parsed = JSON.parse(text)
    } catch {
      // not JSON
    }
    return { status: res.status, body: parsed }
  }

  async function makeSpace(parent: string, name: string, annotations = {}): Promise<Space> {
    const ws = {
      apiVersion: 'tenancy.kcp.io/v1alpha1',
      kind: 'Workspace',
      metadata: { name, annotations },
    }
    const res = await call(
      'POST',
      `/clusters/${parent}/apis/tenancy.kcp.io/v1alpha1/workspaces`,
      ws
    )
    if (res.status !== 201) throw new Error(`workspace ${name}: ${JSON.stringify(res.body)}`)
    return { id: res.body.spec.cluster, path: `${parent}:${name}`, phase: 'Ready' }
  }

  const inventory = await makeSpace('root', 'imw')
  const st = await call('POST', `/clusters/${inventory.id}/apis/edge.kcp.io/v1alpha1/synctargets`, {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'SyncTarget',
    metadata: { name: 'edge1' },
  })
  if (st.status !== 201) throw new Error(`synctarget: ${JSON.stringify(st.body)}`)
  const name = `${inventory.id}-mb-${st.body.metadata.uid}`
  const space = await makeSpace('root:espw', name, { [SYNC_TARGET_NAME_ANNOTATION]: 'edge1' })
  let version = (
    await deps.projections.writeManifest(space.id, {
      desired: DESIRED(),
      expectedVersion: null,
      now: new Date(),
    })
  ).manifest.version
  const client = createHubClient(deps, { fieldManager: 'edge-upsync', baseUrl: BASE })
  const env: ReportEnv = { deps, client, heartbeats: new Map() }

  /** Counts of write requests since the counter was last reset. */
  const writes = () => {
    const snap = counter.snapshot()
    return ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem']
      .map((op) => snap[op] ?? 0)
      .reduce((a, b) => a + b, 0)
  }

  return {
    store,
    app,
    deps,
    env,
    call,
    counter,
    writes,
    inventory,
    mailbox: { name, space },
    syncTargetPath: `/clusters/${inventory.id}/apis/edge.kcp.io/v1alpha1/synctargets/edge1`,
    /** Path of a mailbox collection, e.g. `apps/v1/namespaces/ns/deployments`. */
    mbPath: (rest: string) =>
      `/clusters/${space.id}/${rest.startsWith('v1/') ? 'api' : 'apis'}/${rest}`,
    setFault(f: ((call: FaultCall) => Promise<void>) | undefined) {
      fault = f
    },
    async rewrite(desired: DesiredEntry[]) {
      version = (
        await deps.projections.writeManifest(space.id, {
          desired,
          expectedVersion: version,
          now: new Date(),
        })
      ).manifest.version
    },
    async getCopy(rest: string): Promise<KubeObject> {
      const res = await call(
        'GET',
        `/clusters/${space.id}/${rest.startsWith('v1/') ? 'api' : 'apis'}/${rest}`
      )
      return res.body
    },
    close: async () => {
      await settle()
      await store.close()
    },
  }
}
