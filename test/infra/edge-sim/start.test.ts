/**
 * A started simulated edge cluster (own table on dynalite, HTTPS with the local stack's kind of
 * self-signed certificate, the simulator running on its own timer) driven by the real kubectl:
 * the everyday commands against a real cluster must behave the same.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  KubeConfig,
  type KubernetesObject,
  KubernetesObjectApi,
  PatchStrategy,
} from '@kubernetes/client-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SimulatedEdge, startSimulatedEdge } from '../../../infra/edge-sim/start.ts'
import { createLocalHubCert } from '../../../infra/local/tls-cert.ts'
import { silentLogger } from '../../../lib/log.ts'
import { type KubectlEnv, ok, runKubectl } from '../../e2e/helpers/kubectl.ts'
import { parsePrinted, printedRow } from '../../e2e/helpers/printed-table.ts'
import { type Dynalite, startDynalite } from '../../helpers/dynalite.ts'

const TOKEN = 'florin-admin-token'
let db: Dynalite
let edge: SimulatedEdge
let dir: string
let env: KubectlEnv
const kubectl = async (...args: string[]) => ok(await runKubectl(env, args, { timeoutMs: 45_000 }))

beforeAll(async () => {
  db = await startDynalite()
  const tls = createLocalHubCert()
  edge = await startSimulatedEdge({
    name: 'florin',
    ddbEndpoint: db.endpoint,
    tls: { cert: tls.certPem, key: tls.keyPem },
    adminToken: TOKEN,
    log: silentLogger,
    simulator: { periodMs: 100 },
  })
  dir = await mkdtemp(join(tmpdir(), 'edge-sim-'))
  env = { kubeconfig: join(dir, 'kubeconfig'), cacheDir: join(dir, 'cache') }
  const ca = Buffer.from(tls.certPem).toString('base64')
  await writeFile(
    env.kubeconfig,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        { name: 'florin', cluster: { server: edge.url, 'certificate-authority-data': ca } },
      ],
      users: [{ name: 'florin-admin', user: { token: TOKEN } }],
      contexts: [{ name: 'florin', context: { cluster: 'florin', user: 'florin-admin' } }],
      'current-context': 'florin',
    })
  )
}, 60_000)
afterAll(async () => {
  await edge?.close()
  await db?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

const runningPods = async () =>
  parsePrinted(await kubectl('get', 'pods')).filter((r) => r.STATUS === 'Running')

describe('kubectl against a simulated edge cluster', () => {
  it('serves https at the root with the built-in namespaces, the node and the kubernetes Service', async () => {
    expect(edge.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/)
    const ns = parsePrinted(await kubectl('get', 'namespaces')).map((r) => r.NAME)
    expect(ns).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system'])
    expect(printedRow(await kubectl('get', 'nodes'), 'florin-node').STATUS).toBe('Ready')
    expect(printedRow(await kubectl('get', 'svc'), 'kubernetes')['CLUSTER-IP']).toBe('10.96.0.1')
  })

  it('create deployment, rollout status, Running 1/1 pods, scale, expose', async () => {
    expect(await kubectl('create', 'deployment', 'web', '--image=nginx')).toBe(
      'deployment.apps/web created\n'
    )
    expect(await kubectl('rollout', 'status', 'deployment/web', '--timeout=30s')).toContain(
      'deployment "web" successfully rolled out'
    )
    const pods = await runningPods()
    expect(pods).toHaveLength(1)
    expect(pods[0]).toMatchObject({ READY: '1/1', STATUS: 'Running', RESTARTS: '0' })
    expect(pods[0]?.NAME).toMatch(/^web-[a-z0-9]+-[a-z0-9]{5}$/)
    expect(parsePrinted(await kubectl('get', 'deploy', '-A'), 'NAMESPACE')).toEqual([
      expect.objectContaining({ NAMESPACE: 'default', NAME: 'web', READY: '1/1' }),
    ])

    expect(await kubectl('scale', 'deployment/web', '--replicas=2')).toBe(
      'deployment.apps/web scaled\n'
    )
    await kubectl('rollout', 'status', 'deployment/web', '--timeout=30s')
    expect(printedRow(await kubectl('get', 'deploy'), 'web')).toMatchObject({
      READY: '2/2',
      'UP-TO-DATE': '2',
      AVAILABLE: '2',
    })
    expect((await runningPods()).map((p) => p.READY)).toEqual(['1/1', '1/1'])

    expect(await kubectl('expose', 'deployment', 'web', '--port=80')).toBe('service/web exposed\n')
    const svc = printedRow(await kubectl('get', 'svc'), 'web')
    expect(svc).toMatchObject({ TYPE: 'ClusterIP', 'PORT(S)': '80/TCP' })
    expect(svc['CLUSTER-IP']).toMatch(/^10\.(9[6-9]|10\d|11[01])\.\d+\.\d+$/)
  })

  it('rollout restart rolls to a new ReplicaSet; wait sees Available', async () => {
    expect(await kubectl('rollout', 'restart', 'deployment/web')).toBe(
      'deployment.apps/web restarted\n'
    )
    await kubectl('rollout', 'status', 'deployment/web', '--timeout=30s')
    const sets = parsePrinted(await kubectl('get', 'rs'))
    expect(sets).toHaveLength(2)
    expect(sets.map((r) => r.DESIRED).sort()).toEqual(['0', '2'])
    expect(
      await kubectl('wait', '--for=condition=Available', 'deployment/web', '--timeout=30s')
    ).toBe('deployment.apps/web condition met\n')
    const history = await kubectl('rollout', 'history', 'deployment/web')
    expect(history).toMatch(/^1\s/m)
    expect(history).toMatch(/^2\s/m)
    expect(await kubectl('rollout', 'undo', 'deployment/web')).toBe(
      'deployment.apps/web rolled back\n'
    )
    await kubectl('rollout', 'status', 'deployment/web', '--timeout=30s')
    const after = parsePrinted(await kubectl('get', 'rs'))
    expect(after).toHaveLength(2)
    const revisions = await kubectl('rollout', 'history', 'deployment/web')
    expect(revisions).toMatch(/^2\s/m)
    expect(revisions).toMatch(/^3\s/m)
    expect(revisions).not.toMatch(/^1\s/m)
  })

  it('a Job completes and kubectl wait sees it', async () => {
    await kubectl('create', 'job', 'once', '--image=busybox:1.36', '--', 'true')
    expect(await kubectl('wait', '--for=condition=complete', 'job/once', '--timeout=30s')).toBe(
      'job.batch/once condition met\n'
    )
    expect(printedRow(await kubectl('get', 'jobs'), 'once')).toMatchObject({
      STATUS: 'Complete',
      COMPLETIONS: '1/1',
    })
  })

  it('client-node server-side apply (as the edge agent does) gets defaults and a running rollout', async () => {
    const kc = new KubeConfig()
    kc.loadFromFile(env.kubeconfig)
    const api = KubernetesObjectApi.makeApiClient(kc)
    type Deploy = KubernetesObject & { spec: any; status?: any }
    const manifest: Deploy = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'applied', namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: 'applied' } },
        template: {
          metadata: { labels: { app: 'applied' } },
          spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] },
        },
      },
    }
    const apply = () =>
      api.patch<Deploy>(
        manifest,
        undefined,
        undefined,
        'edge-agent',
        true,
        PatchStrategy.ServerSideApply
      )
    const first = await apply()
    expect(first.spec.replicas).toBe(1)
    let live = first
    for (const end = Date.now() + 20_000; Date.now() < end; ) {
      live = await api.read<Deploy>({
        ...manifest,
        metadata: { name: 'applied', namespace: 'default' },
      })
      if (live.status?.availableReplicas === 1) break
      await new Promise((r) => setTimeout(r, 200))
    }
    expect(live.status).toMatchObject({ observedGeneration: 1, availableReplicas: 1 })
    const again = await apply()
    expect(again.metadata?.generation).toBe(1)
    expect(again.status).toMatchObject({ availableReplicas: 1 })
  })

  it('deleting the Deployment takes its ReplicaSets and Pods with it', async () => {
    await kubectl('delete', 'deployment', 'web')
    const deadline = Date.now() + 20_000
    let left = ''
    do {
      left = await kubectl('get', 'rs,pods', '-l', 'app=web', '-o', 'name')
      if (left === '') break
      await new Promise((r) => setTimeout(r, 200))
    } while (Date.now() < deadline)
    expect(left).toBe('')
  })
})
