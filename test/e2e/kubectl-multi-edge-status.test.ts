/**
 * Status a kube user can wait on for a workload placed on several edges (issue 36, item 1), end
 * to end through `npm start` with its two default simulated edges (florin and guilder, both
 * env=prod) and real kubectl in the workload space: `kubectl rollout status` of a Deployment
 * returns once both edges run it, and again after an image change once both run the new version;
 * `kubectl wait --for=condition=Available` and `--for=condition=Complete` (a Job) return; `kubectl
 * get` prints READY and COMPLETIONS as at every edge and EDGES saying the status is from both;
 * and an image the edges cannot pull (lib/edge-sim/sim-image-pull.ts) makes `rollout status` fail
 * with kube's own reason once the Deployment's progressDeadlineSeconds pass at the edges — at one
 * of the two (its Location's parameter names another registry) as at both. On the
 * code before the aggregated status, the center's copy had no status with two edges and every
 * wait here timed out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_EDGES } from '../../infra/local/edges-config.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { type EdgeStack, edgeStack } from './helpers/edge-stack.ts'
import { eventually } from './helpers/edge-world.ts'
import { ok, okJson } from './helpers/kubectl.ts'
import { printedRow } from './helpers/printed-table.ts'
import { type E2eStack, startStack } from './helpers/stack.ts'

const EDGES = ['florin', 'guilder']
/** kubectl's own wait, generous for a busy machine; the test's timeout is above it. */
const WAIT = '150s'
const KUBECTL_MS = 170_000
const TEST_MS = 240_000

let stack: E2eStack
let edges: EdgeStack

beforeAll(async () => {
  stack = await startStack({ edges: DEFAULT_EDGES })
  edges = edgeStack(stack)
  await edges.placeShop('multi')
}, 180_000)
afterAll(async () => {
  await stack?.destroy()
})

/** kubectl in root:multi, namespace shop. */
const k = (args: string[], input?: string) =>
  stack.kubectl([...edges.at('multi'), '-n', 'shop', ...args], {
    timeoutMs: KUBECTL_MS,
    ...(input ? { input } : {}),
  })

type Deploy = KubeObject & {
  spec: { template: { spec: { containers: { image: string }[] } } }
  status?: Record<string, any>
}
const atEdge = (edge: string) =>
  edges.get(['--context', edge], 'deployment', 'shop', 'web') as Promise<Deploy | undefined>
/** What the center and the edges say of the Deployment, for a failure's message. */
const described = async () => {
  const at = [`center: ${(await k(['get', 'deployment', 'web', '-o', 'yaml'])).stdout}`]
  for (const edge of EDGES) at.push(`${edge}: ${JSON.stringify((await atEdge(edge))?.status)}`)
  return at.join('\n')
}
const condition = (o: { status?: Record<string, any> }, type: string) =>
  (o.status?.conditions ?? []).find((c: { type: string }) => c.type === type)

describe('a Deployment on two edges, waited on at the center', () => {
  it(
    'rollout status returns once both edges run it; READY and EDGES say so',
    async () => {
      const r = await k(['rollout', 'status', 'deployment/web', `--timeout=${WAIT}`])
      expect(r.code, `${r.stderr}\n${await described()}`).toBe(0)
      expect(r.stdout).toMatch(/deployment "web" successfully rolled out\n$/)
      for (const edge of EDGES) expect((await atEdge(edge))?.status?.availableReplicas).toBe(2)
      const row = printedRow(ok(await k(['get', 'deployment', 'web'])), 'web')
      expect(row).toMatchObject({ READY: '2/2', 'UP-TO-DATE': '2', AVAILABLE: '2', EDGES: '2/2' })
      const center = okJson<Deploy>(await k(['get', 'deployment', 'web', '-o', 'json']))
      expect(condition(center, 'edge.kcp.io/Aggregated')).toMatchObject({
        status: 'True',
        reason: 'AllEdgesReported',
        message: 'status of 2 of 2 edges: florin, guilder',
      })
    },
    TEST_MS
  )

  it(
    'kubectl wait --for=condition=Available returns',
    async () => {
      const r = await k([
        'wait',
        '--for=condition=Available',
        'deployment/web',
        `--timeout=${WAIT}`,
      ])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout).toBe('deployment.apps/web condition met\n')
    },
    TEST_MS
  )

  it(
    'after an image change, rollout status returns once both edges run the new version',
    async () => {
      ok(await k(['set', 'image', 'deployment/web', 'web=nginx:1.28']))
      const r = await k(['rollout', 'status', 'deployment/web', `--timeout=${WAIT}`])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout).toMatch(/deployment "web" successfully rolled out\n$/)
      // Returned only once every edge reported the new version rolled out.
      for (const edge of EDGES) {
        const d = await atEdge(edge)
        expect(d?.spec.template.spec.containers[0]?.image, edge).toBe('nginx:1.28')
        expect(d?.status, edge).toMatchObject({
          observedGeneration: d?.metadata.generation,
          updatedReplicas: 2,
          availableReplicas: 2,
        })
        expect(d?.status?.replicas, edge).toBe(2)
      }
    },
    TEST_MS
  )
})

const JOB = JSON.stringify({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name: 'once', namespace: 'shop' },
  spec: {
    template: {
      spec: { restartPolicy: 'Never', containers: [{ name: 'once', image: 'busybox:1.36' }] },
    },
  },
})

describe('a Job on two edges', () => {
  it(
    'kubectl wait --for=condition=Complete returns once both completed it',
    async () => {
      ok(await k(['apply', '-f', '-'], JOB))
      const r = await k(['wait', '--for=condition=Complete', 'job/once', `--timeout=${WAIT}`])
      expect(r.code, r.stderr).toBe(0)
      for (const edge of EDGES) {
        const job = await edges.get(['--context', edge], 'job', 'shop', 'once')
        expect(condition(job as Deploy, 'Complete')?.status, edge).toBe('True')
      }
      const row = printedRow(ok(await k(['get', 'job', 'once'])), 'once')
      expect(row).toMatchObject({ STATUS: 'Complete', COMPLETIONS: '1/1', EDGES: '2/2' })
    },
    TEST_MS
  )
})

/** A Deployment whose image names the registry of each edge's Location (`%(registry)`). */
const API = JSON.stringify({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'api',
    namespace: 'shop',
    annotations: { 'edge.kcp.io/expand-parameters': 'true' },
  },
  spec: {
    replicas: 1,
    progressDeadlineSeconds: 10,
    selector: { matchLabels: { app: 'api' } },
    template: {
      metadata: { labels: { app: 'api' } },
      spec: { containers: [{ name: 'api', image: '%(registry)/shop-api:v1' }] },
    },
  },
})

describe('a rollout one of the two edges cannot make', () => {
  it(
    'rollout status fails with kube’s reason, naming the edge, while the other runs it',
    async () => {
      const annotate = (edge: string, registry: string) =>
        stack.kubectl([...edges.at('imw-1'), 'annotate', 'location', edge, `registry=${registry}`])
      ok(await annotate('florin', 'docker.io'))
      ok(await annotate('guilder', 'registry.invalid'))
      ok(await k(['apply', '-f', '-'], API))
      const r = await k(['rollout', 'status', 'deployment/api', `--timeout=${WAIT}`])
      expect(r.code, r.stdout).not.toBe(0)
      expect(r.stderr).toContain('error: deployment "api" exceeded its progress deadline')
      const at = (edge: string) =>
        edges.get(['--context', edge], 'deployment', 'shop', 'api') as Promise<Deploy | undefined>
      expect((await at('florin'))?.status?.availableReplicas).toBe(1)
      expect(condition((await at('guilder')) as Deploy, 'Progressing')?.reason).toBe(
        'ProgressDeadlineExceeded'
      )
      const center = okJson<Deploy>(await k(['get', 'deployment', 'api', '-o', 'json']))
      expect(center.status?.observedGeneration).toBe(center.metadata.generation)
      expect(condition(center, 'Progressing')).toMatchObject({
        status: 'False',
        reason: 'ProgressDeadlineExceeded',
        message: expect.stringMatching(/^guilder: ReplicaSet "api-[0-9a-z]+" has timed out/),
      })
    },
    TEST_MS
  )
})

describe('a rollout the edges cannot make', () => {
  it(
    'rollout status fails with kube’s reason once the progress deadline passes at the edges',
    async () => {
      const patch = {
        spec: {
          progressDeadlineSeconds: 10,
          template: { spec: { containers: [{ name: 'web', image: 'registry.invalid/shop:v3' }] } },
        },
      }
      ok(await k(['patch', 'deployment', 'web', '-p', JSON.stringify(patch)]))
      const r = await k(['rollout', 'status', 'deployment/web', `--timeout=${WAIT}`])
      expect(r.code).not.toBe(0)
      expect(r.stderr).toContain('error: deployment "web" exceeded its progress deadline')
      const center = okJson<Deploy>(await k(['get', 'deployment', 'web', '-o', 'json']))
      expect(center.status?.observedGeneration).toBe(center.metadata.generation)
      // rollout status fails as soon as one edge timed out (its name then leads the message); the
      // other may time out a moment later on a busy machine.
      expect(condition(center, 'Progressing')).toMatchObject({
        status: 'False',
        reason: 'ProgressDeadlineExceeded',
        message: expect.stringMatching(
          /^(?:(?:florin|guilder): )?ReplicaSet "web-[0-9a-z]+" has timed out progressing\.$/
        ),
      })
      // The old pods still serve at both edges, so the center reads 2 available of 2.
      expect(printedRow(ok(await k(['get', 'deployment', 'web'])), 'web')).toMatchObject({
        READY: '2/2',
        AVAILABLE: '2',
        EDGES: '2/2',
      })
      await eventually(async () => {
        const text = ok(await k(['describe', 'deployment', 'web']))
        expect(text).toMatch(/Progressing\s+False\s+ProgressDeadlineExceeded/)
        expect(text).toMatch(/edge\.kcp\.io\/Aggregated\s+True\s+AllEdgesReported/)
      })
    },
    TEST_MS
  )
})
