/**
 * An edge running on alone, through `npm start` with one simulated edge: the center is stopped
 * (its wrangler process group frozen with SIGSTOP, so it accepts connections and answers nothing,
 * the harder case for a client), the workload stays at the edge; the agent is killed and restarted
 * by the stack while the center is still down, and still nothing is deleted — an owned ConfigMap
 * deleted at the edge meanwhile is even put back from the agent's copy on disk; the center comes back
 * (SIGCONT) and is changed at once (a ConfigMap edited, the Deployment deleted, a ConfigMap added),
 * and the edge converges — the restarted agent prunes the Deployment it created before its restart,
 * so it still knew what it owned. The agent gives up on each request after 5 s
 * (EDGEPLANE_AGENT_TIMEOUT, its --center-timeout) instead of the default 30 s.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type EdgeStack, edgeStack } from './helpers/edge-stack.ts'
import { eventually } from './helpers/edge-world.ts'
import { ok } from './helpers/kubectl.ts'
import { configMap } from './helpers/manifests.ts'
import { type E2eStack, startStack } from './helpers/stack.ts'

let stack: E2eStack
let edges: EdgeStack
let frozen: number | undefined
/** The agent's limit for each request to the center, in seconds. */
const TIMEOUT = 5

beforeAll(async () => {
  stack = await startStack({
    edges: 'florin:env=prod',
    env: { EDGEPLANE_AGENT_TIMEOUT: String(TIMEOUT) },
  })
  edges = edgeStack(stack)
  await edges.placeShop('wmw')
}, 180_000)
afterAll(async () => {
  if (frozen !== undefined) process.kill(-frozen, 'SIGCONT')
  await stack?.destroy()
})

const atEdge = (kind: string, name: string) =>
  edges.get(['--context', 'florin'], kind, 'shop', name)
const data = (o: unknown) => (o as { data?: Record<string, string> } | undefined)?.data

async function agent(): Promise<{ pid: number | undefined; log: string }> {
  const e = (await stack.readInfo()).edges[0]
  if (!e) throw new Error('no edge in stack.json')
  return { pid: e.agentPid, log: await readFile(join(e.dir, 'agent.log'), 'utf8') }
}

/** Poll outcomes the agent logged after `offset` characters of its log. */
async function outcomesSince(offset: number): Promise<string[]> {
  const { log } = await agent()
  return [...log.slice(offset).matchAll(/"outcome":"([a-z-]+)"/g)].map((m) => m[1] ?? '')
}

/** The agent, since `offset`, reported the center unreachable after its request timed out. */
async function timedOutSince(offset: number): Promise<void> {
  expect(await outcomesSince(offset)).toContain('offline')
  expect((await agent()).log.slice(offset)).toContain(`no answer within ${TIMEOUT * 1000} ms`)
}

async function workloadStays(): Promise<void> {
  const deploy = await atEdge('deployment', 'web')
  expect((deploy?.status as { readyReplicas?: number } | undefined)?.readyReplicas).toBe(2)
  expect(data(await atEdge('configmap', 'page'))).toEqual({ 'index.html': 'v1' })
}

describe('an edge with the center down', () => {
  it('runs the workload before the center goes away', async () => {
    await eventually(workloadStays, 60_000)
  })

  it('keeps everything while the center answers nothing', async () => {
    const start = (await agent()).log.length
    frozen = stack.info().wrangler.pid
    process.kill(-frozen, 'SIGSTOP')
    // The agent's request times out (TIMEOUT) and it reports the center unreachable.
    await eventually(() => timedOutSince(start), 40_000)
    await workloadStays()
  }, 60_000)

  it('keeps everything after its agent restarts while the center is still down', async () => {
    const before = await agent()
    if (before.pid === undefined) throw new Error('no agent pid')
    process.kill(before.pid, 'SIGKILL')
    let restartedAt = 0
    await eventually(async () => {
      const now = await agent()
      expect(now.pid).toBeDefined()
      expect(now.pid).not.toBe(before.pid)
      restartedAt = now.log.lastIndexOf('--- agent florin starting')
    }, 60_000)
    // Drift while both are away: the restarted agent puts it back from its copy on disk.
    ok(await stack.kubectl(['delete', 'configmap', 'page', '-n', 'shop'], { context: 'florin' }))
    await eventually(() => timedOutSince(restartedAt), 40_000)
    await workloadStays()
  }, 120_000)

  it('converges once the center is back, changes included', async () => {
    if (frozen !== undefined) process.kill(-frozen, 'SIGCONT')
    frozen = undefined
    const wmw = edges.at('wmw')
    const patch = JSON.stringify({ data: { 'index.html': 'v2' } })
    ok(await stack.kubectl([...wmw, 'patch', 'configmap', 'page', '-n', 'shop', '-p', patch]))
    ok(await stack.kubectl([...wmw, 'delete', 'deployment', 'web', '-n', 'shop']))
    ok(
      await stack.kubectl([...wmw, 'create', '-f', '-'], {
        input: configMap('shop', 'extra', { k: 'v' }),
      })
    )
    await eventually(async () => {
      expect(data(await atEdge('configmap', 'page'))).toEqual({ 'index.html': 'v2' })
      expect(data(await atEdge('configmap', 'extra'))).toEqual({ k: 'v' })
      expect(await atEdge('deployment', 'web')).toBeUndefined()
    }, 90_000)
    expect(await atEdge('service', 'web')).toBeDefined()
  }, 120_000)
})
