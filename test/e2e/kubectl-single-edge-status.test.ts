/**
 * Status a kube user can wait on for a workload placed on ONE edge (issue 36, item 1: the singleton
 * return, the edge's status copied back), end to end through `npm start` with its two default
 * simulated edges and real kubectl in the workload space, the placement selecting florin alone:
 * `kubectl rollout status` of a Deployment returns once florin runs it, and again after an edit
 * (generation 2) once florin runs the new version, the center's observedGeneration then being the
 * center's own generation; and an image florin cannot pull (lib/edge-sim/sim-image-pull.ts) makes
 * `rollout status` fail with kube's own reason once the Deployment's progressDeadlineSeconds pass
 * there. On the code before, a copy that failed its rollout returned no status: the center kept
 * the last status of the rollout in progress and `rollout status` waited until its timeout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_EDGES } from '../../infra/local/edges-config.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { type EdgeStack, edgeStack, shopWorkload } from './helpers/edge-stack.ts'
import { eventually } from './helpers/edge-world.ts'
import { ok, okJson } from './helpers/kubectl.ts'
import { workspace } from './helpers/manifests.ts'
import { printedRow } from './helpers/printed-table.ts'
import { type SharedStack, sharedStack } from './helpers/shared-stack.ts'

/** kubectl's own wait, generous for a busy machine; the test's timeout is above it. */
const WAIT = '150s'
const KUBECTL_MS = 170_000
const TEST_MS = 240_000

let stack: SharedStack
let edges: EdgeStack

beforeAll(async () => {
  stack = await sharedStack({ edges: DEFAULT_EDGES })
  edges = edgeStack(stack)
  ok(await stack.kubectl(['create', '-f', '-'], { input: workspace('single') }))
  // The shop workload in namespace solo, placed on the Location of florin only.
  const input = shopWorkload('solo', 2, 'v1', { 'loc-name': 'florin' })
  ok(await stack.kubectl([...edges.at('single'), 'apply', '-f', '-'], { input }))
}, 180_000)
afterAll(async () => {
  await stack?.close()
})

/** kubectl in root:single, namespace solo. */
const k = (args: string[]) =>
  stack.kubectl([...edges.at('single'), '-n', 'solo', ...args], { timeoutMs: KUBECTL_MS })

type Deploy = KubeObject & { status?: Record<string, any> }
const center = async () => okJson<Deploy>(await k(['get', 'deployment', 'web', '-o', 'json']))
const atFlorin = () =>
  edges.get(['--context', 'florin'], 'deployment', 'solo', 'web') as Promise<Deploy | undefined>
/** What the center and florin say of the Deployment, for a failure's message. */
const described = async () =>
  `center: ${JSON.stringify((await center()).status)}\nflorin: ${JSON.stringify((await atFlorin())?.status)}`
const condition = (o: Deploy, type: string) =>
  (o.status?.conditions ?? []).find((c: { type: string }) => c.type === type)
const rolloutStatus = () => k(['rollout', 'status', 'deployment/web', `--timeout=${WAIT}`])

describe('a Deployment on one edge, waited on at the center', () => {
  it(
    'rollout status returns once florin runs it; READY and EDGES say so',
    async () => {
      const r = await rolloutStatus()
      expect(r.code, `${r.stderr}\n${await described()}`).toBe(0)
      expect(r.stdout).toMatch(/deployment "web" successfully rolled out\n$/)
      expect((await atFlorin())?.status?.availableReplicas).toBe(2)
      expect(await edges.get(['--context', 'guilder'], 'deployment', 'solo', 'web')).toBeUndefined()
      const row = printedRow(ok(await k(['get', 'deployment', 'web'])), 'web')
      expect(row).toMatchObject({ READY: '2/2', AVAILABLE: '2', EDGES: '1/1' })
    },
    TEST_MS
  )

  it(
    'after an edit (generation 2), rollout status returns once florin runs the new version',
    async () => {
      ok(await k(['set', 'image', 'deployment/web', 'web=nginx:1.28']))
      expect((await center()).metadata.generation).toBe(2)
      const r = await rolloutStatus()
      expect(r.code, `${r.stderr}\n${await described()}`).toBe(0)
      expect(r.stdout).toMatch(/deployment "web" successfully rolled out\n$/)
      const d = await atFlorin()
      expect(d?.spec).toMatchObject({
        template: { spec: { containers: [{ image: 'nginx:1.28' }] } },
      })
      expect(d?.status).toMatchObject({ updatedReplicas: 2, availableReplicas: 2 })
      expect((await center()).status?.observedGeneration).toBe(2)
    },
    TEST_MS
  )

  it(
    'an image florin cannot pull: rollout status fails with kube’s reason past the deadline',
    async () => {
      const patch = {
        spec: {
          progressDeadlineSeconds: 10,
          template: { spec: { containers: [{ name: 'web', image: 'registry.invalid/solo:v3' }] } },
        },
      }
      ok(await k(['patch', 'deployment', 'web', '-p', JSON.stringify(patch)]))
      const r = await rolloutStatus()
      expect(r.code, `${r.stdout}\n${await described()}`).not.toBe(0)
      expect(r.stderr).toContain('error: deployment "web" exceeded its progress deadline')
      const now = await center()
      expect(now.metadata.generation).toBe(3)
      expect(now.status?.observedGeneration).toBe(3)
      expect(condition(now, 'Progressing')).toMatchObject({
        status: 'False',
        reason: 'ProgressDeadlineExceeded',
        message: expect.stringMatching(/^ReplicaSet "web-[0-9a-z]+" has timed out progressing\.$/),
      })
      // The old pods still serve at florin.
      expect(printedRow(ok(await k(['get', 'deployment', 'web'])), 'web')).toMatchObject({
        READY: '2/2',
        EDGES: '1/1',
      })
      await eventually(async () => {
        const text = ok(await k(['describe', 'deployment', 'web']))
        expect(text).toMatch(/Progressing\s+False\s+ProgressDeadlineExceeded/)
      })
    },
    TEST_MS
  )
})
