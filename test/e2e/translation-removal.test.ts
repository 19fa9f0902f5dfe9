/**
 * The deletion lifecycle seen from kubectl (issue 5, "removing"), through `npm start` with two
 * simulated edges labelled env=prod and the shop workload (helpers/edge-stack.ts) placed on both.
 * To see a removal wait deterministically, the agent of the edge that must confirm it is held:
 * frozen with SIGSTOP (the stack's supervisor sees a live child and restarts nothing), released
 * with SIGCONT. Guilder's Location relabelled out of the selector: the placement's status.summary
 * counts each of its copies `removing` while guilder's agent is held, guilder's mailbox shows them
 * terminating with the edge-removal finalizer, and guilder still runs them; released, they leave
 * guilder, then the count drops to 0 and the tombstones leave the mailbox. A ConfigMap deleted at
 * the source while placed on florin, whose agent is held, stays terminating with the finalizer
 * until florin has removed it, then is gone. The tests run in order on one stack.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { KubeObject } from '../../lib/kube/types.ts'
import { type EdgeStack, edgeStack, shopWorkload } from './helpers/edge-stack.ts'
import { eventually } from './helpers/edge-world.ts'
import { ok, okJson } from './helpers/kubectl.ts'
import { configMap, workspace } from './helpers/manifests.ts'
import { type E2eStack, startStack } from './helpers/stack.ts'

const WAIT = 90_000
const FINALIZER = 'edge.kcp.io/edge-removal'
const held = new Set<number>()
let stack: E2eStack
let edges: EdgeStack
const ws = () => edges.at('wmw-r')

type Row = { group: string; resource: string; namespace?: string; name: string } & Record<
  'pending' | 'applied' | 'ready' | 'failed' | 'removing' | 'stale',
  number
>

beforeAll(async () => {
  stack = await startStack({ edges: 'florin:env=prod,guilder:env=prod' })
  edges = edgeStack(stack)
  ok(await stack.kubectl(['create', '-f', '-'], { input: workspace('wmw-r') }))
  ok(await stack.kubectl([...ws(), 'apply', '-f', '-'], { input: shopWorkload('shop', 1, 'v1') }))
}, 180_000)
afterAll(async () => {
  // A failed test may leave an agent frozen: let it run, so the stack can stop it.
  for (const pid of held) {
    try {
      process.kill(pid, 'SIGCONT')
    } catch {
      // Already gone.
    }
  }
  await stack?.destroy()
})

const atEdge = (edge: string, kind: string, name: string) =>
  edges.get(['--context', edge], kind, 'shop', name)
const atCenter = (kind: string, name: string) => edges.get(ws(), kind, 'shop', name)
const inMailbox = async (edge: string, kind: string, name: string) =>
  edges.get(await edges.mailbox(edge), kind, 'shop', name)

async function rows(): Promise<Row[]> {
  const ep = okJson<{ status?: { summary?: { objects?: Row[] } } }>(
    await stack.kubectl([...ws(), 'get', 'edgeplacement', 'shop', '-o', 'json'])
  )
  return ep.status?.summary?.objects ?? []
}
async function row(resource: string, name: string): Promise<Row | undefined> {
  return (await rows()).find((r) => r.resource === resource && r.name === name)
}
const counts = (ready: number, removing: number) => ({
  pending: 0,
  applied: 0,
  ready,
  failed: 0,
  removing,
  stale: 0,
})

/** Freezes the agent of `edge` (SIGSTOP); `release` lets it run again. */
async function holdAgent(edge: string): Promise<{ release(): void }> {
  const pid = (await stack.readInfo()).edges.find((e) => e.name === edge)?.agentPid
  if (pid === undefined) throw new Error(`no agent pid for ${edge} in stack.json`)
  process.kill(pid, 'SIGSTOP')
  held.add(pid)
  return {
    release() {
      process.kill(pid, 'SIGCONT')
      held.delete(pid)
    },
  }
}

/** Runs `check` every second for `ms`: what it asserts holds the whole time. */
async function stays(check: () => Promise<void>, ms = 8_000): Promise<void> {
  const until = Date.now() + ms
  do {
    await check()
    await new Promise((r) => setTimeout(r, 1_000))
  } while (Date.now() < until)
}

const deletionOf = (o: KubeObject | undefined) => ({
  deletionTimestamp: o?.metadata.deletionTimestamp,
  finalizers: o?.metadata.finalizers,
})

describe('an object unplaced from one edge', () => {
  it('runs on both edges first', async () => {
    await eventually(async () => {
      expect(await row('configmaps', 'page')).toMatchObject(counts(2, 0))
      expect(await row('deployments', 'web')).toMatchObject(counts(2, 0))
      for (const edge of ['florin', 'guilder']) {
        expect((await atEdge(edge, 'configmap', 'page'))?.metadata.name).toBe('page')
        expect((await atEdge(edge, 'deployment', 'web'))?.metadata.name).toBe('web')
      }
    }, WAIT)
  })

  it('shows "removing" while the edge has not confirmed, then leaves that edge', async () => {
    const agent = await holdAgent('guilder')
    ok(
      await stack.kubectl([
        ...edges.at('imw-1'),
        'label',
        'location',
        'guilder',
        'env=dev',
        '--overwrite',
      ])
    )
    const waiting = async () => {
      expect(await row('configmaps', 'page')).toEqual({
        group: '',
        resource: 'configmaps',
        namespace: 'shop',
        name: 'page',
        ...counts(1, 1),
      })
      expect(await row('deployments', 'web')).toMatchObject({ group: 'apps', ...counts(1, 1) })
      for (const kind of ['configmap', 'deployment']) {
        const name = kind === 'configmap' ? 'page' : 'web'
        const tombstone = await inMailbox('guilder', kind, name)
        expect(tombstone?.metadata.deletionTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
        expect(tombstone?.metadata.finalizers).toContain(FINALIZER)
        expect((await atEdge('guilder', kind, name))?.metadata.name).toBe(name)
      }
      // florin keeps its live copy.
      const live = await inMailbox('florin', 'configmap', 'page')
      expect(live?.metadata.name).toBe('page')
      expect(live?.metadata.deletionTimestamp).toBeUndefined()
    }
    await eventually(waiting, WAIT)
    await stays(waiting)
    agent.release()
    await eventually(async () => {
      expect(await atEdge('guilder', 'configmap', 'page')).toBeUndefined()
      expect(await atEdge('guilder', 'deployment', 'web')).toBeUndefined()
    }, WAIT)
    await eventually(async () => {
      expect(await row('configmaps', 'page')).toMatchObject(counts(1, 0))
      expect(await row('deployments', 'web')).toMatchObject(counts(1, 0))
      expect(await inMailbox('guilder', 'configmap', 'page')).toBeUndefined()
      expect(await inMailbox('guilder', 'deployment', 'web')).toBeUndefined()
    }, WAIT)
    expect((await atEdge('florin', 'configmap', 'page'))?.metadata.name).toBe('page')
  }, 300_000)
})

describe('an object deleted at the source', () => {
  it('stays terminating until its edge has removed it, then is gone', async () => {
    ok(
      await stack.kubectl([...ws(), 'create', '-f', '-'], {
        input: configMap('shop', 'doomed', { k: 'v' }),
      })
    )
    await eventually(async () => {
      expect((await atEdge('florin', 'configmap', 'doomed'))?.data).toEqual({ k: 'v' })
      expect((await atCenter('configmap', 'doomed'))?.metadata.finalizers).toEqual([FINALIZER])
    }, WAIT)
    const agent = await holdAgent('florin')
    ok(
      await stack.kubectl([...ws(), 'delete', 'configmap', 'doomed', '-n', 'shop', '--wait=false'])
    )
    const waiting = async () => {
      const source = deletionOf(await atCenter('configmap', 'doomed'))
      expect(source.deletionTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
      expect(source.finalizers).toEqual([FINALIZER])
      expect(await row('configmaps', 'doomed')).toEqual({
        group: '',
        resource: 'configmaps',
        namespace: 'shop',
        name: 'doomed',
        ...counts(0, 1),
      })
      expect((await atEdge('florin', 'configmap', 'doomed'))?.data).toEqual({ k: 'v' })
    }
    await eventually(waiting, WAIT)
    await stays(waiting)
    agent.release()
    await eventually(async () => {
      expect(await atEdge('florin', 'configmap', 'doomed')).toBeUndefined()
    }, WAIT)
    await eventually(async () => {
      const r = await stack.kubectl([...ws(), 'get', 'configmap', 'doomed', '-n', 'shop'])
      expect(r.code).not.toBe(0)
      expect(r.stderr).toContain('configmaps "doomed" not found')
      expect(await row('configmaps', 'doomed')).toBeUndefined()
    }, WAIT)
  }, 300_000)
})
