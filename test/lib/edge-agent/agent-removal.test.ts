/**
 * Tombstones (desired entries marked `removing`) against a real edge API: the agent deletes what
 * it owns under the key and only then confirms the removal in the report's `removed` list, once
 * (not every poll); a delete that fails, or that edge finalizers still hold, is not confirmed; a
 * foreign object under the key is never
 * deleted but its removal is confirmed; a tombstone the edge never had is confirmed too.
 */
import { describe, expect, it } from 'vitest'
import { builtinsFrom } from '../../../lib/apis/builtins.ts'
import { createAgent } from '../../../lib/edge-agent/agent.ts'
import { createCenterClient } from '../../../lib/edge-agent/center-client.ts'
import { silentLogger } from '../../../lib/log.ts'
import { RemoteError } from '../../../lib/remote/remote-error.ts'
import { CENTER_TOKEN, type FakeCenter } from './fake-center.ts'
import {
  AGENT_NS,
  agentBench,
  cmRef,
  configMap,
  namespace,
  nsRef,
  tempStateDir,
} from './fixture.ts'

const bench = agentBench('mb-removal')

const removedIn = (c: FakeCenter) => c.reports.flatMap((r) => (r.removed ?? []).map((x) => x.name))

describe('removal confirmations', () => {
  it('deletes an owned object, then confirms it once', async () => {
    bench.center.put(nsRef('r1'), namespace('r1'))
    bench.center.put(cmRef('r1', 'a'), configMap('r1', 'a', { v: '1' }))
    const agent = await bench.agent()
    expect((await agent.poll()).created).toBe(2)
    expect(removedIn(bench.center)).toEqual([])
    bench.center.tombstone(cmRef('r1', 'a'))
    const r = await agent.poll()
    expect(r).toMatchObject({ ok: true, pruned: 1, removed: 1 })
    expect(await bench.edge.get(cmRef('r1', 'a'))).toBeUndefined()
    expect(bench.center.reports.at(-1)?.removed).toEqual([cmRef('r1', 'a')])
    // Accepted: not sent again while the tombstone stays, and never re-created.
    await agent.poll()
    await agent.poll()
    expect(removedIn(bench.center)).toEqual(['a'])
    expect(await bench.edge.get(cmRef('r1', 'a'))).toBeUndefined()
    expect(agent.inspect().reported.removed).toHaveLength(1)
    // The tombstone goes: the accepted confirmation is forgotten.
    bench.center.remove(cmRef('r1', 'a'))
    await agent.poll()
    expect(agent.inspect().reported.removed).toBeUndefined()
  })

  it('does not confirm while the delete fails, and does once it succeeds', async () => {
    bench.center.put(nsRef('r2'), namespace('r2'))
    bench.center.put(cmRef('r2', 'b'), configMap('r2', 'b', {}))
    let failing = true
    const kube = {
      ...bench.edge.kube,
      delete: async (...args: Parameters<typeof bench.edge.kube.delete>) => {
        if (failing) throw new RemoteError(500, 'etcd is sad')
        return bench.edge.kube.delete(...args)
      },
    }
    const agent = await createAgent({
      mailbox: bench.center.mailbox,
      center: createCenterClient({
        baseUrl: bench.center.url,
        mailbox: bench.center.mailbox,
        token: async () => CENTER_TOKEN,
      }),
      kube,
      stateDir: await tempStateDir(),
      record: { namespace: AGENT_NS, name: 'removal-flaky-delete' },
      builtins: builtinsFrom(),
      log: silentLogger,
    })
    await agent.poll()
    bench.center.tombstone(cmRef('r2', 'b'))
    expect(await agent.poll()).toMatchObject({ pruned: 0, problems: 1 })
    expect(await bench.edge.get(cmRef('r2', 'b'))).toBeDefined()
    expect(removedIn(bench.center)).toEqual([])
    failing = false
    expect(await agent.poll()).toMatchObject({ pruned: 1, removed: 1 })
    expect(removedIn(bench.center)).toEqual(['b'])
  })

  it('waits while edge finalizers hold the object it deleted', async () => {
    bench.center.put(nsRef('r4'), namespace('r4'))
    bench.center.put(cmRef('r4', 'held'), configMap('r4', 'held', {}))
    const agent = await bench.agent()
    await agent.poll()
    const hold = { metadata: { finalizers: ['example.com/hold'] } }
    const patch = (body: unknown) =>
      bench.edge.call('PATCH', '/api/v1/namespaces/r4/configmaps/held', body, {
        contentType: 'application/merge-patch+json',
      })
    expect((await patch(hold)).status).toBe(200)
    bench.center.tombstone(cmRef('r4', 'held'))
    expect(await agent.poll()).toMatchObject({ pruned: 1 })
    expect((await bench.edge.get(cmRef('r4', 'held')))?.metadata.deletionTimestamp).toBeTruthy()
    await agent.poll()
    expect(removedIn(bench.center)).toEqual([])
    expect((await patch({ metadata: { finalizers: null } })).status).toBe(200)
    expect(await bench.edge.get(cmRef('r4', 'held'))).toBeUndefined()
    expect(await agent.poll()).toMatchObject({ removed: 1 })
    expect(removedIn(bench.center)).toEqual(['held'])
  })

  it('leaves a foreign object alone and confirms; confirms what it never had', async () => {
    bench.center.put(nsRef('r3'), namespace('r3'))
    const agent = await bench.agent()
    await agent.poll()
    const made = await bench.edge.call(
      'POST',
      '/api/v1/namespaces/r3/configmaps',
      configMap('r3', 'x', { mine: 'yes' })
    )
    expect(made.status).toBe(201)
    bench.center.put(cmRef('r3', 'x'), configMap('r3', 'x', { center: 'yes' }))
    expect((await agent.poll()).problems).toBe(1)
    bench.center.tombstone(cmRef('r3', 'x'))
    bench.center.put(cmRef('r3', 'never'), configMap('r3', 'never', {}))
    bench.center.tombstone(cmRef('r3', 'never'))
    expect(await agent.poll()).toMatchObject({ pruned: 0, removed: 2 })
    const x = await bench.edge.get(cmRef('r3', 'x'))
    expect(x?.metadata.uid).toBe(made.body.metadata.uid)
    expect(x?.data).toEqual({ mine: 'yes' })
    expect(await bench.edge.get(cmRef('r3', 'never'))).toBeUndefined()
    expect(removedIn(bench.center).sort()).toEqual(['never', 'x'])
  })
})
