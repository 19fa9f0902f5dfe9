/**
 * An edge agent restarted without its state folder — as a recreated pod on an emptyDir starts —
 * in the middle of a rollout, through `npm start` with two simulated edges (florin and guilder,
 * env=prod) and real kubectl. A workload runs on both; a ConfigMap made directly at florin is in
 * the way of a later workload object of the same name and reported ForeignObject. Then florin's
 * agent is frozen, the workload changes at the center (a new page, more replicas, the Service
 * deleted), the agent's state folder is wiped and the agent killed; the stack starts it again.
 * The new agent finds its ownership record in florin's cluster: florin converges with guilder
 * (the same objects, same uids: adopted, not recreated; the Service pruned), no poll after the
 * restart reports more than the one foreign object, and that object stays as the edge made it.
 */
import { readFile, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { KubeObject } from '../../lib/kube/types.ts'
import { type EdgeStack, edgeStack } from './helpers/edge-stack.ts'
import { eventually } from './helpers/edge-world.ts'
import { ok, okJson } from './helpers/kubectl.ts'
import { type E2eStack, startStack } from './helpers/stack.ts'

let stack: E2eStack
let edges: EdgeStack
let frozen: number | undefined
const WAIT = 90_000

beforeAll(async () => {
  // Info logs: the agent then logs every poll that reports a problem, with the count.
  stack = await startStack({
    edges: 'florin:env=prod,guilder:env=prod',
    env: { LOG_LEVEL: 'info' },
  })
  edges = edgeStack(stack)
  await edges.placeShop('wmw')
}, 180_000)
afterAll(async () => {
  if (frozen !== undefined) process.kill(frozen, 'SIGKILL')
  await stack?.destroy()
})

const at = (edge: string, kind: string, name: string) =>
  edges.get(['--context', edge], kind, 'shop', name)
const data = (o: unknown) => (o as { data?: Record<string, string> } | undefined)?.data
const ready = (o: KubeObject | undefined) =>
  (o?.status as { readyReplicas?: number } | undefined)?.readyReplicas
const problemOf = (o: KubeObject | undefined) =>
  o?.metadata.annotations?.['edge.kcp.io/sync-problem']

async function florin() {
  const e = (await stack.readInfo()).edges.find((x) => x.name === 'florin')
  if (!e) throw new Error('no florin in stack.json')
  return e
}

/** florin's mailbox copy of a shop object. */
const copy = async (kind: string, name: string) =>
  edges.get(await edges.mailbox('florin'), kind, 'shop', name)

describe('an agent restarted without its state mid-rollout', () => {
  it('runs the workload on both edges, and reports the object in its way as foreign', async () => {
    await eventually(async () => {
      for (const edge of ['florin', 'guilder'])
        expect(ready(await at(edge, 'deployment', 'web'))).toBe(2)
    }, WAIT)
    await edges.foreignConfigMap('florin', 'wmw', 'shared')
    await eventually(async () => {
      expect(data(await at('guilder', 'configmap', 'shared'))).toEqual({ owner: 'center' })
      expect(problemOf(await copy('configmap', 'shared'))).toMatch(/^ForeignObject: /)
    }, WAIT)
  })

  it('converges after the restart, adopting its own objects and none other', async () => {
    const before = await florin()
    if (before.agentPid === undefined) throw new Error('no agent pid')
    const uid = async (kind: string, name: string) => (await at('florin', kind, name))?.metadata.uid
    const deployUid = await uid('deployment', 'web')
    const pageUid = await uid('configmap', 'page')
    // Frozen: it writes nothing more while the center changes and its folder goes.
    process.kill(before.agentPid, 'SIGSTOP')
    frozen = before.agentPid
    await edges.applyShop('wmw', 3, 'v2')
    // Not waited for: a deleted source waits for its edges to confirm, florin's agent among them.
    ok(
      await stack.kubectl([
        ...edges.at('wmw'),
        'delete',
        'service',
        'web',
        '-n',
        'shop',
        '--wait=false',
      ])
    )
    const state = join(before.dir, 'agent')
    expect((await stat(join(state, 'desired.json'))).isFile()).toBe(true)
    await rm(state, { recursive: true, force: true })
    process.kill(before.agentPid, 'SIGKILL')
    frozen = undefined
    let restartedAt = -1
    await eventually(async () => {
      const now = await florin()
      expect(now.agentPid).toBeDefined()
      expect(now.agentPid).not.toBe(before.agentPid)
      const log = await readFile(join(now.dir, 'agent.log'), 'utf8')
      restartedAt = log.lastIndexOf('--- agent florin starting')
      expect(restartedAt).toBeGreaterThan(-1)
    }, 60_000)

    await eventually(async () => {
      for (const edge of ['florin', 'guilder']) {
        expect(ready(await at(edge, 'deployment', 'web'))).toBe(3)
        expect(data(await at(edge, 'configmap', 'page'))).toEqual({ 'index.html': 'v2' })
        expect(await at(edge, 'service', 'web')).toBeUndefined()
      }
      for (const [kind, name] of [
        ['deployment', 'web'],
        ['configmap', 'page'],
      ] as const)
        expect(problemOf(await copy(kind, name))).toBeUndefined()
    }, WAIT)
    // Adopted, not recreated; a fresh state folder.
    expect(await uid('deployment', 'web')).toBe(deployUid)
    expect(await uid('configmap', 'page')).toBe(pageUid)
    expect((await stat(join(state, 'desired.json'))).isFile()).toBe(true)

    // The foreign object: still reported, untouched, unmarked.
    expect(problemOf(await copy('configmap', 'shared'))).toMatch(/^ForeignObject: /)
    const shared = await at('florin', 'configmap', 'shared')
    expect(data(shared)).toEqual({ owner: 'edge' })
    expect(shared?.metadata.annotations?.['edge.kcp.io/downsynced']).toBeUndefined()

    // Every poll of the new agent reported one problem at most: the foreign object.
    const log = (await readFile(join((await florin()).dir, 'agent.log'), 'utf8')).slice(restartedAt)
    const counts = [...log.matchAll(/"problems":(\d+)/g)].map((m) => Number(m[1]))
    expect(counts.length).toBeGreaterThan(0)
    expect(Math.max(...counts)).toBe(1)

    // The record in florin's cluster holds the live uids.
    const cms = okJson<{ items: KubeObject[] }>(
      await stack.kubectl(['get', 'configmaps', '-n', 'edgeplane-system', '-o', 'json'], {
        context: 'florin',
      })
    )
    const record = Object.assign(
      {},
      ...cms.items
        .filter((c) => /^edgeplane-agent-owned-\d+$/.test(c.metadata.name ?? ''))
        .map((c) => JSON.parse((c.data as { objects: string }).objects))
    ) as Record<string, { uid?: string }>
    expect(record['apps/deployments/shop/web']?.uid).toBe(deployUid)
    expect(record['/configmaps/shop/page']?.uid).toBe(pageUid)
    expect(record['/configmaps/shop/shared']).toBeUndefined()
    expect(record['/services/shop/web']).toBeUndefined()
  }, 240_000)
})
