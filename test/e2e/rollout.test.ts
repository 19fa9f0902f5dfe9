/**
 * A staged rollout end to end (issue 37), through `npm start` with four simulated edges in three
 * waves — canary1 (ring=canary), early1 (ring=early), late1 and late2 (ring=late, the catch-all
 * wave) — and real kubectl in the workload space. canary1 cannot pull images tagged `bad`
 * (EDGEPLANE_EDGE_FAULTS, lib/edge-sim/faults.ts): a Deployment of one there passes its
 * progressDeadlineSeconds and the summarize step counts the edge failed. In order, on one Rollout:
 * - a server dry run previews which edge falls in which wave;
 * - a good image change reaches the waves in order, each only after the wave before it passed its
 *   gate and soak (sampled at the edges: no edge of a later wave runs it while an earlier wave's
 *   edge does not, and each wave's promotion time is after the previous one's soak);
 * - a bad change fails at canary1 and pauses the rollout (GateFailed, the edge and reason named)
 *   while the other edges keep running — the previous revision; fixing the source (a new
 *   revision) rolls out from the first wave to every edge;
 * - under `onFailure: Rollback` a bad change fails at canary1 and canary1 returns to the previous
 *   revision by itself (RolledBack, a Warning Event);
 * - late2's agent frozen (SIGSTOP) goes stale; under `staleEdges: Skip` the late wave passes
 *   without it, and it gets the revision once it runs again;
 * - a user pause holds a new revision before the first wave, through a restart of the whole stack;
 *   resume rolls it out.
 * Edges beat every 5 s (EDGEPLANE_STALE_AFTER=15) so that staleness shows in seconds. The gate's
 * soak (4 s) is shorter than the Deployment's progress deadline (6 s) on purpose: a new pod that
 * cannot start leaves the Deployment running its old replica but not ready, which must hold the
 * gate (pending) until the deadline fails it, never pass it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { KubeObject } from '../../lib/kube/types.ts'
import { type EdgeStack, edgeStack } from './helpers/edge-stack.ts'
import { eventually } from './helpers/edge-world.ts'
import { ok, okJson } from './helpers/kubectl.ts'
import { workspace } from './helpers/manifests.ts'
import { printedRow } from './helpers/printed-table.ts'
import { type E2eStack, startStack } from './helpers/stack.ts'

const EDGES = ['canary1', 'early1', 'late1', 'late2'] as const
type Edge = (typeof EDGES)[number]
const WAVE_OF: Record<Edge, string> = {
  canary1: 'canary',
  early1: 'early',
  late1: 'late',
  late2: 'late',
}
/** Longer than the Deployment's progress deadline, as a gate on a rollout should be. */
const SOAK_S = 4
/** A rollout of three waves on a busy machine, generously. */
const ROLLOUT_MS = 300_000
const TEST_MS = ROLLOUT_MS + 120_000

let stack: E2eStack
let edges: EdgeStack
let frozen: number | undefined

const WORKLOAD = `apiVersion: v1
kind: Namespace
metadata: {name: shop, labels: {app: shop}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 1
  progressDeadlineSeconds: 6
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: "nginx:1.27"}]
---
apiVersion: edge.kcp.io/v1alpha1
kind: EdgePlacement
metadata: {name: shop}
spec:
  locationSelectors: [{matchExpressions: [{key: ring, operator: Exists}]}]
  namespaceSelector: {matchLabels: {app: shop}}
`

const ROLLOUT = `apiVersion: edge.kcp.io/v1alpha1
kind: Rollout
metadata: {name: shop}
spec:
  namespaceSelector: {matchLabels: {app: shop}}
  waves:
  - name: canary
    locationSelectors: [{matchLabels: {ring: canary}}]
  - name: early
    locationSelectors: [{matchLabels: {ring: early}}]
  - name: late
  gate: {soakSeconds: ${SOAK_S}, deadlineSeconds: 150, staleEdges: Skip}
  onFailure: Pause
`

beforeAll(async () => {
  stack = await startStack({
    edges: EDGES.map((e) => `${e}:ring=${WAVE_OF[e]}`).join(','),
    env: { EDGEPLANE_EDGE_FAULTS: 'canary1=image-pull@*:bad', EDGEPLANE_STALE_AFTER: '15' },
  })
  edges = edgeStack(stack)
  ok(await stack.kubectl(['create', '-f', '-'], { input: workspace('ro') }))
  ok(await k(['apply', '-f', '-'], WORKLOAD))
}, 240_000)
afterAll(async () => {
  if (frozen !== undefined) process.kill(frozen, 'SIGCONT')
  await stack?.destroy()
})

/** kubectl in root:ro. */
const k = (args: string[], input?: string) =>
  stack.kubectl([...edges.at('ro'), ...args], { timeoutMs: 60_000, ...(input ? { input } : {}) })

type Rollout = KubeObject & { status?: Record<string, any> }
const rollout = async () => okJson<Rollout>(await k(['get', 'rollout', 'shop', '-o', 'json']))
const waveStatus = (r: Rollout, name: string) =>
  (r.status?.waves ?? []).find((w: { name: string }) => w.name === name)

type AtEdge = { image?: string; available: boolean }
async function atEdge(edge: Edge): Promise<AtEdge> {
  const d = (await edges.get(['--context', edge], 'deployment', 'shop', 'web')) as
    | (KubeObject & { spec: any; status?: any })
    | undefined
  const image = d?.spec?.template?.spec?.containers?.[0]?.image as string | undefined
  const available = (d?.status?.conditions ?? []).some(
    (c: { type: string; status: string }) => c.type === 'Available' && c.status === 'True'
  )
  return { ...(image ? { image } : {}), available: available && d?.status?.updatedReplicas === 1 }
}
const images = async () => {
  const out: Record<string, string | undefined> = {}
  for (const e of EDGES) out[e] = (await atEdge(e)).image
  return out
}

const setImage = async (image: string) =>
  ok(await k(['-n', 'shop', 'set', 'image', 'deployment/web', `web=nginx:${image}`]))
const patchSpec = async (patch: Record<string, unknown>) =>
  ok(
    await k(['patch', 'rollout', 'shop', '--type', 'merge', '-p', JSON.stringify({ spec: patch })])
  )

/** Waits until the Rollout satisfies `check`; its last status in the failure. */
async function rolloutUntil(check: (r: Rollout) => boolean, what: string, ms = ROLLOUT_MS) {
  let last: Rollout | undefined
  try {
    await eventually(async () => {
      last = await rollout()
      if (!check(last)) throw new Error(what)
    }, ms)
  } catch (e) {
    throw new Error(
      `${what}: ${JSON.stringify(last?.status)}\nedges: ${JSON.stringify(await images())}`,
      {
        cause: e,
      }
    )
  }
  return last as Rollout
}

/** Waits until every edge of `which` runs `image` and is available. */
async function edgesRun(which: readonly Edge[], image: string) {
  await eventually(async () => {
    for (const e of which) {
      const at = await atEdge(e)
      if (at.image !== `nginx:${image}` || !at.available)
        throw new Error(
          `${e} runs ${JSON.stringify(at)}, not nginx:${image}; ${JSON.stringify(await images())}`
        )
    }
  }, ROLLOUT_MS)
}

describe('a staged rollout over three waves', () => {
  it(
    'previews the waves with a server dry run, then adopts what runs as revision 1',
    async () => {
      await edgesRun(EDGES, '1.27')
      const dry = okJson<Rollout>(
        await k(['create', '--dry-run=server', '-o', 'json', '-f', '-'], ROLLOUT)
      )
      const waves = dry.status?.preview?.waves as {
        name: string
        edges: { items: { syncTargetName: string }[] }
      }[]
      expect(waves.map((w) => [w.name, w.edges.items.map((e) => e.syncTargetName).sort()])).toEqual(
        [
          ['canary', ['canary1']],
          ['early', ['early1']],
          ['late', ['late1', 'late2']],
        ]
      )
      expect(dry.status?.preview?.unassigned?.count).toBe(0)
      expect((await k(['get', 'rollout', 'shop'])).stderr).toMatch(/NotFound|not found/)
      ok(await k(['apply', '-f', '-'], ROLLOUT))
      await rolloutUntil(
        (r) => r.status?.phase === 'Complete' && r.status?.completedRevision === 1,
        'revision 1 adopted'
      )
    },
    TEST_MS
  )

  it(
    'takes a good change wave by wave, each after the one before passed its gate and soak',
    async () => {
      await setImage('1.28')
      const trace: Record<string, string | undefined>[] = []
      await eventually(async () => {
        const now = await images()
        trace.push(now)
        if (!EDGES.every((e) => now[e] === 'nginx:1.28')) throw new Error('not everywhere yet')
      }, ROLLOUT_MS)
      const has = (t: Record<string, string | undefined>, e: Edge) => t[e] === 'nginx:1.28'
      for (const t of trace) {
        if (has(t, 'early1')) expect(has(t, 'canary1'), JSON.stringify(trace)).toBe(true)
        if (has(t, 'late1') || has(t, 'late2'))
          expect(has(t, 'early1'), JSON.stringify(trace)).toBe(true)
      }
      const done = await rolloutUntil(
        (r) => r.status?.phase === 'Complete' && r.status?.completedRevision === r.status?.revision,
        'revision 2 complete'
      )
      expect(done.status?.revision).toBe(2)
      const [canary, early, late] = ['canary', 'early', 'late'].map((n) => waveStatus(done, n))
      for (const [before, after] of [
        [canary, early],
        [early, late],
      ]) {
        const soaked = Date.parse(before.passingSince) + SOAK_S * 1000
        expect(Date.parse(after.promotedAt), JSON.stringify(done.status)).toBeGreaterThanOrEqual(
          soaked - 1000
        )
      }
      expect(late).toMatchObject({ revision: 2, edges: 2, ready: 2 })
      const row = printedRow(ok(await k(['get', 'rollouts'])), 'shop')
      expect(row).toMatchObject({ REVISION: '2', PHASE: 'Complete' })
      const described = ok(await k(['describe', 'rollout', 'shop']))
      for (const wave of ['canary', 'early', 'late']) expect(described).toContain(wave)
    },
    TEST_MS
  )

  it(
    'pauses a bad change at the failing canary while the others run the previous revision; a fix rolls out',
    async () => {
      await setImage('bad')
      const paused = await rolloutUntil(
        (r) => r.status?.phase === 'Paused' && waveStatus(r, 'canary')?.failedAt !== undefined,
        'the bad change paused at canary'
      )
      const gate = (paused.status?.conditions ?? []).find((c: any) => c.type === 'GateFailed')
      expect(gate).toMatchObject({ status: 'True', reason: 'TooManyFailures' })
      expect(waveStatus(paused, 'canary').failures[0]).toMatchObject({ syncTarget: 'canary1' })
      expect(waveStatus(paused, 'early')).toMatchObject({ revision: 2 })
      for (const e of ['early1', 'late1', 'late2'] as const)
        expect(await atEdge(e)).toEqual({ image: 'nginx:1.28', available: true })
      await setImage('1.29')
      await edgesRun(EDGES, '1.29')
      await rolloutUntil(
        (r) => r.status?.phase === 'Complete' && r.status?.completedRevision === r.status?.revision,
        'the fix complete'
      )
    },
    TEST_MS
  )

  it(
    'rolls the failing canary back by itself under onFailure: Rollback',
    async () => {
      await patchSpec({ onFailure: 'Rollback' })
      await setImage('bad')
      const back = await rolloutUntil(
        (r) => r.status?.phase === 'RolledBack',
        'the bad change rolled back'
      )
      expect(back.status?.completedRevision).toBeLessThan(back.status?.revision)
      await edgesRun(['canary1'], '1.29')
      for (const e of ['early1', 'late1', 'late2'] as const)
        expect((await atEdge(e)).image).toBe('nginx:1.29')
      const events = okJson<{ items: { reason: string; type: string }[] }>(
        await k(['get', 'events', '-n', 'default', '-o', 'json'])
      )
      expect(events.items).toContainEqual(
        expect.objectContaining({ type: 'Warning', reason: 'RolledBack' })
      )
    },
    TEST_MS
  )

  it(
    'leaves an offline edge out of its wave under staleEdges: Skip, and gives it the revision when it returns',
    async () => {
      const late2 = (await stack.readInfo()).edges.find((e) => e.name === 'late2')
      if (!late2?.agentPid) throw new Error('no late2 agent in stack.json')
      frozen = late2.agentPid
      process.kill(frozen, 'SIGSTOP')
      await setImage('1.30')
      const done = await rolloutUntil(
        (r) => r.status?.phase === 'Complete' && r.status?.completedRevision === r.status?.revision,
        'complete without late2'
      )
      expect(waveStatus(done, 'late')).toMatchObject({ edges: 2, ready: 1, stale: 1 })
      await edgesRun(['canary1', 'early1', 'late1'], '1.30')
      expect((await atEdge('late2')).image).toBe('nginx:1.29')
      process.kill(frozen, 'SIGCONT')
      frozen = undefined
      await edgesRun(['late2'], '1.30')
    },
    TEST_MS
  )

  it(
    'holds a new revision while paused, through a restart of the stack, and rolls it out when resumed',
    async () => {
      await patchSpec({ paused: true })
      await setImage('1.31')
      const held = await rolloutUntil(
        (r) => r.status?.phase === 'Paused' && r.status?.pendingRevision > r.status?.revision,
        'the new revision held'
      )
      expect(waveStatus(held, 'canary').revision).toBe(held.status?.completedRevision)
      const progressing = held.status?.conditions.find((c: any) => c.type === 'Progressing')
      expect(progressing.message).toContain(
        `revision ${held.status?.pendingRevision} waits for resume`
      )
      expect(await images()).toEqual(Object.fromEntries(EDGES.map((e) => [e, 'nginx:1.30'])))
      // The whole stack restarts meanwhile: the held revision and the waves' state are kept.
      expect(await stack.stop('SIGTERM')).toBe(0)
      await stack.start()
      const kept = await rollout()
      expect(kept.status).toMatchObject({
        phase: 'Paused',
        revision: held.status?.revision,
        completedRevision: held.status?.completedRevision,
        pendingRevision: held.status?.pendingRevision,
      })
      await patchSpec({ paused: false })
      await edgesRun(EDGES, '1.31')
      await rolloutUntil(
        (r) => r.status?.phase === 'Complete' && r.status?.completedRevision === r.status?.revision,
        'the resumed revision complete'
      )
    },
    TEST_MS
  )
})
