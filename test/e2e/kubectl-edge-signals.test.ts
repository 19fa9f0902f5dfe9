/**
 * What a kube user reads of edges and placements, through real kubectl against `npm start` with
 * two simulated edges (florin, guilder; env=prod) and the shop workload placed there, the staleness
 * threshold set to 30 s (EDGEPLANE_STALE_AFTER: the Worker's and relay's threshold, the agents
 * beating every 10 s) and the cron every 3 s (EDGEPLANE_CRON_PERIOD), so nothing waits minutes:
 * - `kubectl get synctargets` prints READY True, REASON Heartbeating and the agent's VERSION, as
 *   `kubectl get nodes` does, and `kubectl wait --for=condition=Ready` returns;
 * - a ConfigMap guilder already has (a foreign object) makes the placement's Ready False: `kubectl
 *   get edgeplacements` prints REASON EdgeProblems, and `kubectl describe edgeplacement` lists the
 *   Warning Event about the placement itself — which stays once the ConfigMap is deleted;
 * - florin's agent frozen (SIGSTOP: it sends nothing), florin reads Ready Unknown, reason Stale,
 *   once silent for the threshold, with no event to say so (the cron's liveness sweep), and both
 *   its Ready message and the placement's (StaleDestinations) state the configured 30 s; thawed,
 *   it is True again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IMAGE_VERSION } from '../../lib/edge/manifests-image.ts'
import { type EdgeStack, edgeStack } from './helpers/edge-stack.ts'
import { eventually } from './helpers/edge-world.ts'
import { ok } from './helpers/kubectl.ts'
import { printedColumns, printedRow } from './helpers/printed-table.ts'
import { type E2eStack, startStack } from './helpers/stack.ts'

let stack: E2eStack
let edges: EdgeStack
let frozen: number | undefined

const WAIT = 120_000

beforeAll(async () => {
  stack = await startStack({
    edges: 'florin:env=prod,guilder:env=prod',
    env: { EDGEPLANE_STALE_AFTER: '30', EDGEPLANE_CRON_PERIOD: '3' },
  })
  edges = edgeStack(stack)
  await edges.placeShop('wmw')
}, 240_000)
afterAll(async () => {
  if (frozen !== undefined) process.kill(frozen, 'SIGCONT')
  await stack?.destroy()
})

const inventory = () => edges.at('imw-1')
const workload = () => edges.at('wmw')
const syncTargets = async () => ok(await stack.kubectl([...inventory(), 'get', 'synctargets']))

describe('kubectl get synctargets', () => {
  it('prints each edge Ready, Heartbeating, with its agent version, as nodes print', async () => {
    await eventually(async () => {
      const out = await syncTargets()
      expect(printedColumns(out)).toEqual(['NAME', 'READY', 'REASON', 'VERSION', 'AGE'])
      for (const name of ['florin', 'guilder'])
        expect(printedRow(out, name)).toMatchObject({
          READY: 'True',
          REASON: 'Heartbeating',
          VERSION: IMAGE_VERSION,
        })
    }, WAIT)
    ok(
      await stack.kubectl([
        ...inventory(),
        'wait',
        '--for=condition=Ready',
        'synctarget/florin',
        '--timeout=30s',
      ])
    )
  }, 150_000)
})

describe('a placement’s own Events', () => {
  it('prints the Ready reason and lists the placement’s Warning in kubectl describe', async () => {
    await eventually(async () => {
      const cm = await edges.get(['--context', 'guilder'], 'configmap', 'shop', 'page')
      expect(cm).toBeDefined()
    }, WAIT)
    await edges.foreignConfigMap('guilder', 'wmw', 'shared')
    await eventually(async () => {
      const eps = ok(await stack.kubectl([...workload(), 'get', 'edgeplacements']))
      expect(printedColumns(eps)).toEqual(['NAME', 'LOCATIONS', 'READY', 'REASON', 'AGE'])
      expect(printedRow(eps, 'shop')).toMatchObject({ READY: 'False', REASON: 'EdgeProblems' })
      const described = ok(
        await stack.kubectl([...workload(), 'describe', 'edgeplacement', 'shop'])
      )
      expect(described).toMatch(
        /Events:\s*\n\s*Type\s+Reason\s+Age\s+From\s+Message[\s\S]*Warning\s+ForeignObject\s+\S+\s+edgeplane-summarize\s+1 object reports ForeignObject at 1 of 2 destinations: configmaps shop\/shared at guilder\. configmaps shop\/shared at guilder: /
      )
    }, WAIT)
  }, 180_000)

  it('keeps listing it once the object is gone', async () => {
    ok(await stack.kubectl([...workload(), 'delete', 'configmap', 'shared', '-n', 'shop']))
    const gone = await stack.kubectl([...workload(), 'get', 'configmap', 'shared', '-n', 'shop'])
    expect(gone.stderr).toMatch(/NotFound|not found/)
    const described = ok(await stack.kubectl([...workload(), 'describe', 'edgeplacement', 'shop']))
    expect(described).toMatch(/Warning\s+ForeignObject\s+.*configmaps shop\/shared at guilder/)
  })
})

describe('an edge whose agent goes silent', () => {
  it('reads Ready Unknown (Stale) after the threshold, and True again once it beats', async () => {
    const florin = (await stack.readInfo()).edges.find((e) => e.name === 'florin')
    if (!florin?.agentPid) throw new Error('no florin agent in stack.json')
    frozen = florin.agentPid
    process.kill(frozen, 'SIGSTOP')
    await eventually(async () => {
      const out = await syncTargets()
      expect(printedRow(out, 'florin')).toMatchObject({ READY: 'Unknown', REASON: 'Stale' })
      expect(printedRow(out, 'guilder')).toMatchObject({ READY: 'True' })
    }, WAIT)
    // Every message naming the threshold states the configured one (30 s), not the default.
    const readyOf = async (where: string[], kind: string, name: string) => {
      const o = JSON.parse(ok(await stack.kubectl([...where, 'get', kind, name, '-o', 'json'])))
      return (o.status?.conditions ?? []).find((c: { type: string }) => c.type === 'Ready')
    }
    expect((await readyOf(inventory(), 'synctarget', 'florin'))?.message).toMatch(
      /sent no heartbeat for 30s or more/
    )
    await eventually(async () => {
      expect(await readyOf(workload(), 'edgeplacement', 'shop')).toMatchObject({
        reason: 'StaleDestinations',
        message: '1 of 2 destinations sent no heartbeat within 30s',
      })
    }, WAIT)
    process.kill(frozen, 'SIGCONT')
    frozen = undefined
    const wait = ['wait', '--for=condition=Ready', 'synctarget/florin', '--timeout=90s']
    ok(await stack.kubectl([...inventory(), ...wait], { timeoutMs: 120_000 }))
    expect(printedRow(await syncTargets(), 'florin')).toMatchObject({ REASON: 'Heartbeating' })
  }, 240_000)
})
