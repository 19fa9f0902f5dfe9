/**
 * Held polls through `npm start` (two simulated edges, the agents' plain interval set to 60 s so
 * that what is asserted is the mechanism, not the machine's speed): a desired-state poll held at
 * the center is answered 200 soon after a source change, as is every one of more such polls than
 * the Worker's wake gate lets answer at once (a held poll with nothing changing ends
 * 304 naming its hold; one without `Prefer` is answered at once, as before); the real agents,
 * holding their polls, apply a change long before any plain poll could have fetched it (after
 * an agent fetched, its plain loop asks the center again no sooner than half its interval); and
 * restarted as old-style agents (`--hold-seconds 0`, plain polls every 2 s) they still apply
 * changes.
 */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WAKE_CONCURRENCY } from '../../lib/edge/wake-gate.ts'
import { type EdgeStack, edgeStack } from './helpers/edge-stack.ts'
import { eventually } from './helpers/edge-world.ts'
import { type E2eStack, startStack } from './helpers/stack.ts'

const env: Record<string, string> = { EDGEPLANE_POLL_INTERVAL: '60' }
let stack: E2eStack
let edges: EdgeStack

const EDGES = ['florin', 'guilder']
const pageAt = async (edge: string) => {
  const cm = await edges.get(['--context', edge], 'configmap', 'shop', 'page')
  return (cm?.data as Record<string, string> | undefined)?.['index.html']
}
const atEveryEdge = (page: string, timeoutMs: number) =>
  eventually(async () => {
    for (const edge of EDGES) expect(await pageAt(edge)).toBe(page)
  }, timeoutMs)

beforeAll(async () => {
  stack = await startStack({ edges: 'florin:env=prod,guilder:env=prod', env })
  edges = edgeStack(stack)
  await edges.placeShop('wmw')
  await atEveryEdge('v1', 120_000)
}, 300_000)
afterAll(async () => {
  await stack?.destroy()
})

async function desiredPath(edge: string) {
  const e = (await stack.readInfo()).edges.find((x) => x.name === edge)
  if (!e) throw new Error(`no edge ${edge}`)
  return `/edge/v1/mailboxes/${e.mailbox}/desired`
}

describe('held polls through npm start', () => {
  it('answers a held poll soon after a source change, 304 at its end, and plain polls at once', async () => {
    const path = await desiredPath('florin')
    const token = await edges.edgeToken('florin')
    const etag = (await stack.api(path, { token })).headers.get('etag') ?? ''
    expect(etag).toMatch(/^"\d+"$/)

    const plainStarted = Date.now()
    const plain = await stack.api(path, { token, headers: { 'if-none-match': etag } })
    expect(plain.status).toBe(304)
    expect(plain.headers.get('preference-applied')).toBeNull()
    expect(Date.now() - plainStarted).toBeLessThan(20_000)

    const ended = await stack.api(path, {
      token,
      headers: { 'if-none-match': etag, prefer: 'wait=2' },
    })
    expect(ended.status).toBe(304)
    expect(ended.headers.get('preference-applied')).toBe('wait=2')

    // More polls held than the Worker's wake gate lets answer at once, spread over both edges
    // (an edge's token has 16 requests in flight at most): the rest wait their turn in the
    // isolate, and each must still be answered (workerd cancels a request that waits on nothing
    // of its own as hung, a 500).
    const perEdge = WAKE_CONCURRENCY / 2 + 2
    const polls = await Promise.all(
      EDGES.map(async (edge) => {
        const at = await desiredPath(edge)
        const edgeToken = await edges.edgeToken(edge)
        const tag = (await stack.api(at, { token: edgeToken })).headers.get('etag') ?? ''
        return { at, edgeToken, tag }
      })
    )
    const held = polls.flatMap(({ at, edgeToken, tag }) =>
      Array.from({ length: perEdge }, async () => ({
        tag,
        res: await stack.api(at, {
          token: edgeToken,
          headers: { 'if-none-match': tag, prefer: 'wait=120' },
          timeoutMs: 180_000,
        }),
      }))
    )
    await new Promise((r) => setTimeout(r, 1000))
    const changed = Date.now()
    await edges.applyShop('wmw', 2, 'v2')
    const answers = await Promise.all(held)
    expect(answers.map(({ res }) => res.status)).toEqual(held.map(() => 200))
    for (const { tag, res } of answers) {
      expect(res.headers.get('preference-applied')).toBe('wait=120')
      expect(res.headers.get('etag')).not.toBe(tag)
    }
    // Well inside the 120 s hold: the bell answered them, not the hold's end.
    expect(Date.now() - changed).toBeLessThan(60_000)
  })

  it('has the real agents apply a change long before their plain interval', async () => {
    await atEveryEdge('v2', 60_000)
    // Each agent fetched v2 before this moment; a plain loop would not ask again for 30 s.
    const seen = Date.now()
    await edges.applyShop('wmw', 2, 'v3')
    await atEveryEdge('v3', 25_000)
    expect(Date.now() - seen).toBeLessThan(30_000)
  })

  it('still applies changes with old-style agents (--hold-seconds 0, plain polls)', async () => {
    env.EDGEPLANE_HOLD_SECONDS = '0'
    env.EDGEPLANE_POLL_INTERVAL = '2'
    await stack.stop()
    await stack.start()
    for (const e of (await stack.readInfo()).edges) {
      const args = readFileSync(`/proc/${e.agentPid}/cmdline`, 'utf8').split('\0')
      expect(args[args.indexOf('--hold-seconds') + 1]).toBe('0')
    }
    await atEveryEdge('v3', 60_000)
    await edges.applyShop('wmw', 2, 'v4')
    await atEveryEdge('v4', 60_000)
  }, 240_000)
})
