/**
 * A crash between a create and the write of its uid into the ownership record, against a real
 * edge API: the record in the edge cluster then holds a pending entry (written before the create).
 * The object the agent did create — its marker naming this agent and its server-side-apply field
 * manager on it — is adopted (its uid recorded), the agent's to update and prune, and pruned even
 * when the desired state drops it before adoption; an object someone else made under that name in
 * the meantime, even one carrying a copied marker, or one marked by another agent, is foreign:
 * reported, left alone, never deleted. An owned object deleted at the edge and created again is
 * pending in the record before the create too, so a crash right after it does not make it foreign.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { DOWNSYNCED_ANNOTATION } from '../../../lib/edge/protocol.ts'
import { FIELD_MANAGER } from '../../../lib/edge-agent/apply.ts'
import type { EdgeKube } from '../../../lib/edge-agent/kube-client.ts'
import { AGENT_ANNOTATION } from '../../../lib/edge-agent/marker.ts'
import { RemoteError } from '../../../lib/remote/remote-error.ts'
import { AGENT_NS, agentBench, cmRef, configMap, namespace, newAgent } from './fixture.ts'
import { putShard, recordEntries } from './record-fixture.ts'

const bench = agentBench('mb-crash')
beforeAll(async () => {
  await bench.edge.call('POST', '/api/v1/namespaces', namespace('crash'))
})

/** Record `record` as a crash left it: a pending create of ConfigMap crash/<name>. */
async function pendingRecord(record: string, name: string): Promise<void> {
  const entry = { ...cmRef('crash', name), pendingSince: new Date().toISOString() }
  const objects = {
    [`/configmaps/crash/${name}`]: { ...entry, hash: '', view: '', generations: [] },
  }
  await putShard(bench.edge, record, { objects: JSON.stringify(objects) })
}

const marked = (name: string, agent: string) => ({
  ...configMap('crash', name, { k: 'v' }),
  metadata: {
    name,
    namespace: 'crash',
    annotations: { [DOWNSYNCED_ANNOTATION]: 'true', [AGENT_ANNOTATION]: `${AGENT_NS}/${agent}` },
  },
})

/** Made at the edge by server-side apply as `manager` (the agent's field manager by default). */
function applied(body: object, manager = FIELD_MANAGER) {
  const path = `/api/v1/namespaces/crash/configmaps/${(body as { metadata: { name: string } }).metadata.name}`
  return bench.edge.call('PATCH', `${path}?force=true`, body, {
    contentType: 'application/apply-patch+yaml',
    manager,
  })
}

describe('a crash between create and record', () => {
  it('adopts the object it created, then updates and prunes it', async () => {
    await pendingRecord('crash-mine', 'mine')
    const made = await applied(marked('mine', 'crash-mine'))
    expect(made.status).toBe(201)
    bench.center.put(cmRef('crash', 'mine'), configMap('crash', 'mine', { k: 'v2' }))
    const agent = await bench.agent({ record: 'crash-mine' })
    expect(await agent.poll()).toMatchObject({ ok: true, problems: 0, updated: 1 })
    expect((await recordEntries(bench.edge, 'crash-mine'))['/configmaps/crash/mine']).toMatchObject(
      {
        uid: made.body.metadata.uid,
      }
    )
    expect((await bench.edge.get(cmRef('crash', 'mine')))?.data).toEqual({ k: 'v2' })
    bench.center.remove(cmRef('crash', 'mine'))
    expect(await agent.poll()).toMatchObject({ ok: true, pruned: 1 })
    expect(await bench.edge.get(cmRef('crash', 'mine'))).toBeUndefined()
    expect(await recordEntries(bench.edge, 'crash-mine')).toEqual({})
  })

  it('prunes the object of a pending entry the desired state dropped meanwhile', async () => {
    await pendingRecord('crash-dropped', 'dropped')
    expect((await applied(marked('dropped', 'crash-dropped'))).status).toBe(201)
    bench.center.put(cmRef('crash', 'other'), configMap('crash', 'other', {}))
    const agent = await bench.agent({ record: 'crash-dropped' })
    expect(await agent.poll()).toMatchObject({ ok: true, pruned: 1, problems: 0 })
    expect(await bench.edge.get(cmRef('crash', 'dropped'))).toBeUndefined()
  })

  it('leaves alone an object someone else made meanwhile, marker or not', async () => {
    await pendingRecord('crash-theirs', 'theirs')
    const copied = marked('theirs', 'crash-theirs')
    const made = await bench.edge.call('POST', '/api/v1/namespaces/crash/configmaps', copied)
    expect(made.status).toBe(201)
    bench.center.put(cmRef('crash', 'theirs'), configMap('crash', 'theirs', { k: 'center' }))
    const agent = await bench.agent({ record: 'crash-theirs' })
    expect(await agent.poll()).toMatchObject({ ok: true, problems: 1, updated: 0 })
    expect(bench.center.reports.at(-1)?.problems).toEqual([
      expect.objectContaining({ name: 'theirs', reason: 'ForeignObject' }),
    ])
    expect(agent.inspect().owned.has('/configmaps/crash/theirs')).toBe(false)
    bench.center.remove(cmRef('crash', 'theirs'))
    expect(await agent.poll()).toMatchObject({ ok: true, pruned: 0 })
    expect((await bench.edge.get(cmRef('crash', 'theirs')))?.data).toEqual({ k: 'v' })
  })

  it("leaves alone another agent's object, and prunes nothing for it", async () => {
    await pendingRecord('crash-me', 'elsewhere')
    expect((await applied(marked('elsewhere', 'someone-else'))).status).toBe(201)
    bench.center.put(cmRef('crash', 'elsewhere'), configMap('crash', 'elsewhere', { k: 'center' }))
    const agent = await bench.agent({ record: 'crash-me' })
    expect(await agent.poll()).toMatchObject({ ok: true, problems: 1, updated: 0 })
    expect(bench.center.reports.at(-1)?.problems).toEqual([
      expect.objectContaining({ name: 'elsewhere', reason: 'ForeignObject' }),
    ])
    await pendingRecord('crash-me', 'elsewhere')
    const again = await bench.agent({ record: 'crash-me' })
    bench.center.remove(cmRef('crash', 'elsewhere'))
    expect(await again.poll()).toMatchObject({ ok: true, pruned: 0 })
    expect((await bench.edge.get(cmRef('crash', 'elsewhere')))?.data).toEqual({ k: 'v' })
  })

  it('keeps an owned object it created again when it crashes before recording the new uid', async () => {
    const key = '/configmaps/crash/again'
    bench.center.put(cmRef('crash', 'again'), configMap('crash', 'again', { k: 'v' }))
    const first = await bench.agent({ record: 'crash-again' })
    expect(await first.poll()).toMatchObject({ ok: true, created: 1 })
    const old = (await bench.edge.get(cmRef('crash', 'again')))?.metadata.uid
    await bench.edge.call('DELETE', '/api/v1/namespaces/crash/configmaps/again')
    // The agent "dies" at the record write that would hold the new uid.
    const dying: EdgeKube = {
      ...bench.edge.kube,
      update: async (r, body) => {
        const objects = JSON.parse((body.data as { objects: string }).objects)
        if (objects[key]?.uid !== undefined && objects[key].uid !== old)
          throw new RemoteError(0, 'the agent died')
        return bench.edge.kube.update(r, body)
      },
    }
    const crashing = await newAgent(
      bench.center,
      { ...bench.edge, kube: dying },
      { record: 'crash-again' }
    )
    expect(await crashing.poll()).toMatchObject({ ok: false, created: 0 })
    const recreated = await bench.edge.get(cmRef('crash', 'again'))
    expect(recreated?.metadata.uid).not.toBe(old)
    expect((await recordEntries(bench.edge, 'crash-again'))[key]?.pendingSince).toBeDefined()
    // A new agent (no state folder) adopts it; a change at the center reaches it; then prune.
    bench.center.put(cmRef('crash', 'again'), configMap('crash', 'again', { k: 'v2' }))
    const next = await bench.agent({ record: 'crash-again' })
    expect(await next.poll()).toMatchObject({ ok: true, problems: 0, updated: 1 })
    expect((await recordEntries(bench.edge, 'crash-again'))[key]?.uid).toBe(recreated?.metadata.uid)
    expect((await bench.edge.get(cmRef('crash', 'again')))?.data).toEqual({ k: 'v2' })
    bench.center.remove(cmRef('crash', 'again'))
    expect(await next.poll()).toMatchObject({ ok: true, pruned: 1 })
    expect(await bench.edge.get(cmRef('crash', 'again'))).toBeUndefined()
  })
})
