/**
 * The agent with its center unreachable or failing: nothing at the edge changes (no apply, no
 * prune), the loop backs off exponentially up to 8 × the interval and returns to the interval when
 * the center answers again; a restarted agent (same state folder) still knows what it owns and
 * what it last applied (agent-restart.test.ts: without its state folder); a mailbox without content yet (version 0) is no instruction to remove
 * anything; an incomplete delta makes the agent ask for a full snapshot.
 */
import { describe, expect, it } from 'vitest'
import { runPollLoop } from '../../../lib/edge-agent/poll-loop.ts'
import type { PollResult } from '../../../lib/edge-agent/poll-result.ts'
import { silentLogger } from '../../../lib/log.ts'
import { startFakeCenter } from './fake-center.ts'
import { agentBench, cmRef, configMap, namespace, nsRef } from './fixture.ts'

const bench = agentBench('mb-offline')

async function seed(ns: string) {
  bench.center.put(nsRef(ns), namespace(ns))
  bench.center.put(cmRef(ns, 'a'), configMap(ns, 'a', { v: '1' }))
  bench.center.put(cmRef(ns, 'b'), configMap(ns, 'b', { v: '1' }))
  const agent = await bench.agent()
  expect((await agent.poll()).created).toBe(3)
  return agent
}

describe('center unreachable or failing', () => {
  it.each([
    ['down', 'offline'],
    ['error', 'center-error'],
  ] as const)('center %s: nothing changes at the edge', async (mode, outcome) => {
    const ns = `o-${mode}`
    const agent = await seed(ns)
    const before = await bench.edge.get(cmRef(ns, 'a'))
    bench.center.remove(cmRef(ns, 'a'))
    bench.center.put(cmRef(ns, 'b'), configMap(ns, 'b', { v: '2' }))
    bench.center.mode = mode
    for (let i = 0; i < 2; i++) expect(await agent.poll()).toMatchObject({ ok: false, outcome })
    expect((await bench.edge.get(cmRef(ns, 'a')))?.metadata.resourceVersion).toBe(
      before?.metadata.resourceVersion
    )
    expect((await bench.edge.get(cmRef(ns, 'b')))?.data).toEqual({ v: '1' })
    bench.center.mode = 'up'
    expect(await agent.poll()).toMatchObject({ ok: true, pruned: 1, updated: 1 })
    expect(await bench.edge.get(cmRef(ns, 'a'))).toBeUndefined()
  })

  it('center down: drift on owned objects is reverted from the copy on disk, nothing pruned', async () => {
    const ns = 'o-hold'
    const agent = await seed(ns)
    bench.center.remove(cmRef(ns, 'a'))
    bench.center.mode = 'down'
    const patch = { data: { v: 'edited at the edge' } }
    const edited = await bench.edge.call('PATCH', `/api/v1/namespaces/${ns}/configmaps/b`, patch, {
      contentType: 'application/merge-patch+json',
    })
    expect(edited.status).toBe(200)
    expect((await bench.edge.call('DELETE', `/api/v1/namespaces/${ns}/configmaps/a`)).status).toBe(
      200
    )
    expect(await agent.poll()).toMatchObject({
      ok: false,
      outcome: 'offline',
      created: 1,
      updated: 1,
    })
    expect((await bench.edge.get(cmRef(ns, 'b')))?.data).toEqual({ v: '1' })
    // The copy on disk still holds `a`: without the center there is no reason to drop it.
    expect((await bench.edge.get(cmRef(ns, 'a')))?.data).toEqual({ v: '1' })
    expect(await agent.poll()).toMatchObject({ outcome: 'offline', created: 0, updated: 0 })
    bench.center.mode = 'up'
    expect(await agent.poll()).toMatchObject({ ok: true, pruned: 1 })
    expect(await bench.edge.get(cmRef(ns, 'a'))).toBeUndefined()
  })

  it('backs off exponentially with jitter up to 8 × the interval, then resumes', async () => {
    const agent = await seed('o-backoff')
    bench.center.mode = 'down'
    const delays: number[] = []
    const results: PollResult[] = []
    const stop = new AbortController()
    await runPollLoop({
      poll: async () => {
        const r = await agent.poll()
        results.push(r)
        if (results.length === 6) bench.center.mode = 'up'
        return r
      },
      intervalMs: 1000,
      random: () => 1,
      sleep: async (ms) => {
        delays.push(ms)
        if (delays.length === 7) stop.abort()
      },
      signal: stop.signal,
      log: silentLogger,
    })
    expect(results.map((r) => r.outcome)).toEqual([
      'offline',
      'offline',
      'offline',
      'offline',
      'offline',
      'offline',
      'unchanged',
    ])
    expect(delays).toEqual([1000, 2000, 4000, 8000, 8000, 8000, 1100])
    expect(await bench.edge.get(cmRef('o-backoff', 'a'))).toBeDefined()
  })
})

describe('restart', () => {
  it('a restarted agent without its center keeps its record and later prunes by it', async () => {
    const first = await seed('o-restart')
    const owned = [...first.inspect().owned.keys()].sort()
    bench.center.mode = 'down'
    const second = await bench.agent({ stateDir: first.stateDir })
    expect(second.inspect().desired?.version).toBe(bench.center.version)
    expect(await second.poll()).toMatchObject({ ok: false, outcome: 'offline' })
    expect([...second.inspect().owned.keys()].sort()).toEqual(owned)
    expect(await bench.edge.get(cmRef('o-restart', 'a'))).toBeDefined()
    // The center comes back with one object removed; a foreign one stays.
    await bench.edge.call(
      'POST',
      '/api/v1/namespaces/o-restart/configmaps',
      configMap('o-restart', 'z', {})
    )
    bench.center.remove(cmRef('o-restart', 'a'))
    bench.center.mode = 'up'
    expect(await second.poll()).toMatchObject({ ok: true, pruned: 1 })
    expect(await bench.edge.get(cmRef('o-restart', 'a'))).toBeUndefined()
    expect(await bench.edge.get(cmRef('o-restart', 'b'))).toBeDefined()
    expect(await bench.edge.get(cmRef('o-restart', 'z'))).toBeDefined()
  })

  it('a mailbox without content yet (version 0: re-created, not translated) prunes nothing', async () => {
    const first = await seed('o-recreated')
    const name = (k: string) => k.split('/').pop()
    await bench.center.close()
    bench.center = await startFakeCenter('mb-offline')
    const second = await bench.agent({ stateDir: first.stateDir })
    expect(await second.poll()).toMatchObject({ ok: true, version: 0, pruned: 0 })
    expect(await second.poll()).toMatchObject({ ok: true, outcome: 'unchanged', pruned: 0 })
    expect([...second.inspect().owned.keys()].map(name).sort()).toEqual(['a', 'b', 'o-recreated'])
    expect(await bench.edge.get(cmRef('o-recreated', 'a'))).toBeDefined()
    // Translated at last, without `a`: now it goes.
    bench.center.put(nsRef('o-recreated'), namespace('o-recreated'))
    bench.center.put(cmRef('o-recreated', 'b'), configMap('o-recreated', 'b', { v: '1' }))
    expect(await second.poll()).toMatchObject({ ok: true, pruned: 1, created: 0 })
    expect(await bench.edge.get(cmRef('o-recreated', 'a'))).toBeUndefined()
    expect(await bench.edge.get(cmRef('o-recreated', 'b'))).toBeDefined()
  })

  it('asks for a full snapshot after a delta that lacks bodies', async () => {
    const agent = await seed('o-delta')
    bench.center.put(cmRef('o-delta', 'b'), configMap('o-delta', 'b', { v: '2' }))
    bench.center.omitBodiesOnce = true
    expect(await agent.poll()).toMatchObject({ ok: false, outcome: 'center-error' })
    const n = bench.center.requests.length
    expect(await agent.poll()).toMatchObject({ ok: true, updated: 1 })
    expect(bench.center.requests[n]?.ifNoneMatch).toBeUndefined()
    expect((await bench.edge.get(cmRef('o-delta', 'b')))?.data).toEqual({ v: '2' })
  })
})
