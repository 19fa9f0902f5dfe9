/**
 * Problems in the agent's reports, against a real edge API: a status goes again when the problem
 * of its object clears (that is what clears the problem on the center's copy), also when the
 * status itself did not change; the problem of a failed delete is not sent (the mailbox has no
 * copy to show it on) and the delete is retried.
 */
import { describe, expect, it } from 'vitest'
import type { EdgeKube } from '../../../lib/edge-agent/kube-client.ts'
import { RemoteError } from '../../../lib/remote/remote-error.ts'
import { agentBench, cmRef, configMap, namespace, newAgent, nsRef } from './fixture.ts'

const now = () => new Date('2030-01-01T00:00:00Z')
const bench = agentBench('mb-problems')

describe('problems', () => {
  it('does not send the problem of a failed delete: the mailbox has no copy to show it', async () => {
    bench.center.put(nsRef('r6'), namespace('r6'))
    const cm = cmRef('r6', 'old')
    bench.center.put(cm, configMap('r6', 'old', { k: 'v' }))
    let failing = false
    const flaky: EdgeKube = {
      ...bench.edge.kube,
      delete: async (r, o) => {
        if (failing) throw new RemoteError(500, 'etcd is sad')
        return bench.edge.kube.delete(r, o)
      },
    }
    const agent = await newAgent(bench.center, { ...bench.edge, kube: flaky }, { now })
    await agent.poll()
    failing = true
    bench.center.remove(cm)
    const n = bench.center.reports.length
    expect(await agent.poll()).toMatchObject({ ok: true, pruned: 0, problems: 1 })
    expect(bench.center.reports.slice(n).flatMap((r) => r.problems)).toEqual([])
    expect(agent.inspect().owned.has('/configmaps/r6/old')).toBe(true)
    failing = false
    expect(await agent.poll()).toMatchObject({ ok: true, pruned: 1, problems: 0 })
  })

  it('sends a status again when its problem clears, claiming the new generation', async () => {
    bench.center.put(nsRef('r4'), namespace('r4'))
    const cm = cmRef('r4', 'conf')
    bench.center.put(cm, configMap('r4', 'conf', { k: 'v' }))
    const agent = await bench.agent({ now })
    await agent.poll()
    const last = () => bench.center.reports.at(-1)
    expect(last()?.statuses.find((s) => s.name === 'conf')).toMatchObject({
      observedGeneration: 1,
      status: {},
    })
    // Generation 2 is invalid at the edge; generation 3 is generation 1 again.
    bench.center.put(cm, { ...configMap('r4', 'conf', {}), data: { k: 5 } })
    await agent.poll()
    expect(last()?.problems).toEqual([
      expect.objectContaining({ name: 'conf', reason: 'ApplyFailed' }),
    ])
    bench.center.put(cm, configMap('r4', 'conf', { k: 'v' }))
    const n = bench.center.reports.length
    expect(await agent.poll()).toMatchObject({ ok: true, problems: 0, updated: 0 })
    expect(bench.center.reports.slice(n).flatMap((r) => r.statuses)).toEqual([
      { ...cm, observedGeneration: 3, status: {} },
    ])
  })

  it('sends an unchanged status again when its problem clears', async () => {
    bench.center.put(nsRef('r5'), namespace('r5'))
    const cm = cmRef('r5', 'conf')
    bench.center.put(cm, configMap('r5', 'conf', { k: 'v' }))
    let failing = false
    const flaky: EdgeKube = {
      ...bench.edge.kube,
      get: async (r) => {
        if (failing && r.name === 'conf') throw new RemoteError(0, 'connection reset')
        return bench.edge.kube.get(r)
      },
    }
    const agent = await newAgent(bench.center, { ...bench.edge, kube: flaky }, { now })
    await agent.poll()
    failing = true
    await agent.poll()
    expect(bench.center.reports.at(-1)?.problems).toEqual([
      expect.objectContaining({ name: 'conf', reason: 'ApplyFailed' }),
    ])
    failing = false
    const n = bench.center.reports.length
    await agent.poll()
    expect(bench.center.reports.slice(n).map((r) => [r.statuses, r.problems])).toEqual([
      [[{ ...cm, observedGeneration: 1, status: {} }], []],
    ])
  })
})
