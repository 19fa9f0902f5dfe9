/**
 * The agent end to end between the real center and a simulated edge cluster (center-fixture.ts):
 * workloads run at the edge with the defaults and controllers of a real cluster, and what the edge
 * shows comes back — statuses with the center's observedGeneration through the copies' status,
 * the associated objects of a Deployment, a ReplicaSet and a Job, the heartbeat on the SyncTarget;
 * the edge-owned fields of a Service and the defaulted fields of a Deployment survive an update;
 * a foreign object in the way is left alone and shows on its copy; an edge-born object an upsync
 * set selects lands in the mailbox marked upsynced and leaves it when it is deleted at the edge;
 * an idle poll costs the center no manifest read and no write.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DOWNSYNCED_ANNOTATION, UPSYNCED_ANNOTATION } from '../../../lib/edge/protocol.ts'
import { type CenterEdge, entry, startCenterAndEdge } from './center-fixture.ts'
import { ref } from './fixture.ts'

let t: CenterEdge
beforeAll(async () => {
  t = await startCenterAndEdge()
})
afterAll(() => t?.close())

const container = { name: 'main', image: 'nginx:1.27' }
const workload = (kind: string, name: string, spec: Record<string, unknown>) => ({
  apiVersion: kind === 'Job' ? 'batch/v1' : 'apps/v1',
  kind,
  metadata: { name, namespace: 'shop' },
  spec,
})
const template = (app: string, restartPolicy?: string) => ({
  metadata: { labels: { app } },
  spec: { containers: [container], ...(restartPolicy ? { restartPolicy } : {}) },
})
const service = (port: number) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'svc', namespace: 'shop' },
  spec: { selector: { app: 'web' }, ports: [{ port }] },
})
const syncerConfig = {
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'SyncerConfig',
  metadata: { name: 'the-one' },
  spec: {
    namespaceScope: {},
    upsync: [{ apiGroup: '', resources: ['configmaps'], namespaces: ['shop'], names: ['born'] }],
  },
}
const configMap = (name: string, data: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'shop' },
  data,
})

const mailboxContent = (port: number, deploymentLabels: Record<string, string> = {}) => [
  entry('v1', 'namespaces', '', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'shop' },
  }),
  entry('apps/v1', 'deployments', 'shop', {
    ...workload('Deployment', 'web', {
      selector: { matchLabels: { app: 'web' } },
      template: template('web'),
    }),
    metadata: { name: 'web', namespace: 'shop', labels: deploymentLabels },
  }),
  entry(
    'apps/v1',
    'replicasets',
    'shop',
    workload('ReplicaSet', 'cache', {
      replicas: 2,
      selector: { matchLabels: { app: 'cache' } },
      template: template('cache'),
    })
  ),
  entry(
    'batch/v1',
    'jobs',
    'shop',
    workload('Job', 'once', { template: template('once', 'Never') })
  ),
  entry('v1', 'services', 'shop', service(port)),
  entry('v1', 'configmaps', 'shop', configMap('taken', { from: 'center' })),
  entry('edge.kcp.io/v1alpha1', 'syncerconfigs', '', syncerConfig),
]

/** Polls, lets the edge's controllers work, and polls again until the agent has nothing to send. */
async function converge(): Promise<void> {
  for (let i = 0; i < 5; i++) {
    const r = await t.agent.poll()
    expect(r.ok, r.error).toBe(true)
    await t.simulate()
    if (r.created + r.updated === 0 && !r.reported) return
  }
  throw new Error('the agent did not settle')
}

const annotationJson = (o: { metadata: { annotations?: Record<string, string> } }, key: string) =>
  JSON.parse(o.metadata.annotations?.[key] ?? 'null')

describe('the agent between the center and a simulated edge', () => {
  it('runs the workloads and returns their status and associated objects', async () => {
    // Someone at the edge already made the Namespace and a ConfigMap named like a desired one.
    await t.edgeCall('POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'shop' },
    })
    await t.edgeCall(
      'POST',
      '/api/v1/namespaces/shop/configmaps',
      configMap('taken', { from: 'edge' })
    )
    await t.setMailbox(mailboxContent(80))
    await converge()

    const web = await t.mailboxGet('apps/v1/namespaces/shop/deployments/web/status')
    expect(web.status).toBe(200)
    expect(web.body.status).toMatchObject({ observedGeneration: 1, replicas: 1, readyReplicas: 1 })
    const webAssociated = annotationJson(web.body, 'edge.kcp.io/associated')
    const rsName = webAssociated.find((a: { kind: string }) => a.kind === 'ReplicaSet')?.name
    expect(rsName).toMatch(/^web-[a-z0-9]+$/)
    expect(webAssociated).toEqual([
      {
        kind: 'Pod',
        namespace: 'shop',
        name: expect.stringMatching(`^${rsName}-`),
        phase: 'Running',
        ready: true,
      },
      { kind: 'ReplicaSet', namespace: 'shop', name: rsName, ready: true },
    ])
    const cache = (await t.mailboxGet('apps/v1/namespaces/shop/replicasets/cache')).body
    expect(cache.status).toMatchObject({ replicas: 2, readyReplicas: 2, observedGeneration: 1 })
    expect(annotationJson(cache, 'edge.kcp.io/associated')).toEqual([
      expect.objectContaining({ kind: 'Pod', phase: 'Running', ready: true }),
      expect.objectContaining({ kind: 'Pod', phase: 'Running', ready: true }),
    ])
    const job = (await t.mailboxGet('batch/v1/namespaces/shop/jobs/once')).body
    expect(job.status).toMatchObject({ succeeded: 1, observedGeneration: 1 })
    expect(annotationJson(job, 'edge.kcp.io/associated')).toEqual([
      expect.objectContaining({ kind: 'Pod', phase: 'Complete', ready: false }),
    ])
    // The SyncTarget shows the agent alive (at the center's time).
    const st = await t.call(
      'GET',
      '/clusters/root:imw/apis/edge.kcp.io/v1alpha1/synctargets/florin'
    )
    expect(st.body.status.lastSyncerHeartbeatTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    // The foreign objects are left alone; the one in the way shows on its copy.
    expect((await t.kube.get(ref('v1', 'configmaps', 'shop', 'taken')))?.data).toEqual({
      from: 'edge',
    })
    const taken = (await t.mailboxGet('v1/namespaces/shop/configmaps/taken')).body
    expect(taken.metadata.annotations?.['edge.kcp.io/sync-problem']).toMatch(/^ForeignObject: /)
    const ns = await t.kube.get(ref('v1', 'namespaces', '', 'shop'))
    expect(ns?.metadata.annotations?.[DOWNSYNCED_ANNOTATION]).toBeUndefined()
    const nsCopy = (await t.mailboxGet('v1/namespaces/shop')).body
    expect(nsCopy.metadata.annotations?.['edge.kcp.io/sync-problem']).toMatch(/^ForeignObject: /)
  })

  it('keeps the edge-owned and defaulted fields across an update', async () => {
    const svcRef = ref('v1', 'services', 'shop', 'svc')
    const webRef = ref('apps/v1', 'deployments', 'shop', 'web')
    const before = await t.kube.get(svcRef)
    const clusterIP = (before?.spec as { clusterIP?: string } | undefined)?.clusterIP
    expect(clusterIP).toMatch(/^10\.(9[6-9]|1[01]\d)\./)
    await t.setMailbox(mailboxContent(81, { tier: 'front' }))
    await converge()
    const svc = await t.kube.get(svcRef)
    expect(svc?.spec).toMatchObject({
      clusterIP,
      type: 'ClusterIP',
      ports: [{ port: 81, targetPort: 81 }],
    })
    const web = await t.kube.get(webRef)
    expect(web?.metadata.labels).toEqual({ tier: 'front' })
    expect(web?.spec).toMatchObject({
      replicas: 1,
      strategy: { type: 'RollingUpdate' },
      revisionHistoryLimit: 10,
    })
    expect(web?.status).toMatchObject({ readyReplicas: 1 })
    const copy = (await t.mailboxGet('apps/v1/namespaces/shop/deployments/web')).body
    expect(copy.metadata.generation).toBe(1)
    expect(copy.status).toMatchObject({ observedGeneration: 1, readyReplicas: 1 })
  })

  it('upsyncs an edge-born object, marked, and removes it when it goes at the edge', async () => {
    const made = await t.edgeCall(
      'POST',
      '/api/v1/namespaces/shop/configmaps',
      configMap('born', { at: 'edge' })
    )
    expect(made.status).toBe(201)
    await converge()
    const landed = await t.mailboxGet('v1/namespaces/shop/configmaps/born')
    expect(landed.status).toBe(200)
    expect(landed.body.data).toEqual({ at: 'edge' })
    expect(landed.body.metadata.annotations?.[UPSYNCED_ANNOTATION]).toBe('true')
    expect((await t.edgeCall('DELETE', '/api/v1/namespaces/shop/configmaps/born')).status).toBe(200)
    await converge()
    expect((await t.mailboxGet('v1/namespaces/shop/configmaps/born')).status).toBe(404)
  })

  it('costs the center no manifest read and no write for an idle poll', async () => {
    await converge()
    t.counter.reset()
    const before = t.reads.manifests
    expect(await t.agent.poll()).toMatchObject({ ok: true, outcome: 'unchanged', reported: false })
    expect(t.reads.manifests).toBe(before)
    // At most the two epochs, each read at most once a second per process.
    const ops = t.counter.snapshot()
    expect(Object.keys(ops).filter((op) => op !== 'GetItem')).toEqual([])
    expect(ops.GetItem ?? 0).toBeLessThanOrEqual(2)
  })
})
