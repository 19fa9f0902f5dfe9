/**
 * An agent that starts again without its state folder (its pod recreated), against a real edge
 * API: it finds its ownership record in the edge cluster and re-adopts exactly the objects whose
 * live uid the record holds — it follows the center's changes and removals for them, reports no
 * ForeignObject for them — while an object of the same name it never created, or one that
 * replaced its own (a copied marker included), stays foreign and untouched. A record that cannot
 * be read stops the poll before anything is applied, pruned or adopted. A record someone else
 * changed is read again. An earlier version's `owned.json` is imported into the cluster once.
 */
import { readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DOWNSYNCED_ANNOTATION } from '../../../lib/edge/protocol.ts'
import { AGENT_ANNOTATION } from '../../../lib/edge-agent/marker.ts'
import type { FakeCenter } from './fake-center.ts'
import {
  AGENT_NS,
  agentBench,
  cmRef,
  configMap,
  namespace,
  nsRef,
  tempStateDir,
} from './fixture.ts'
import { putShard, recordEntries } from './record-fixture.ts'

const bench = agentBench('mb-restart')

const data = (o: unknown) => (o as { data?: Record<string, string> } | undefined)?.data
const foreignIn = (c: FakeCenter) =>
  c.reports.flatMap((r) => r.problems ?? []).filter((p) => p.reason === 'ForeignObject')

/** Namespace `ns` with ConfigMaps a, b, c placed and applied by a first agent of record `record`. */
async function placed(ns: string, record: string) {
  bench.center.put(nsRef(ns), namespace(ns))
  for (const n of ['a', 'b', 'c']) bench.center.put(cmRef(ns, n), configMap(ns, n, { v: '1' }))
  const first = await bench.agent({ record })
  expect(await first.poll()).toMatchObject({ ok: true, created: 4, problems: 0 })
  return first
}

const uids = async (ns: string, names: string[]) =>
  Promise.all(names.map(async (n) => (await bench.edge.get(cmRef(ns, n)))?.metadata.uid))

describe('an agent without its state folder', () => {
  it('re-adopts what it created, follows the center for it, and leaves the foreign alone', async () => {
    // Made at the edge before the agent ever applied its namesake: foreign from the start.
    await bench.edge.call('POST', '/api/v1/namespaces', namespace('r1'))
    await bench.edge.call(
      'POST',
      '/api/v1/namespaces/r1/configmaps',
      configMap('r1', 'f', { by: 'edge' })
    )
    bench.center.put(cmRef('r1', 'f'), configMap('r1', 'f', { by: 'center' }))
    bench.center.put(nsRef('r1'), namespace('r1'))
    for (const n of ['a', 'b', 'c'])
      bench.center.put(cmRef('r1', n), configMap('r1', n, { v: '1' }))
    const first = await bench.agent({ record: 'restart-r1' })
    expect(await first.poll()).toMatchObject({ ok: true, created: 3, problems: 2 })
    const before = await uids('r1', ['a', 'b', 'c'])
    // The center moves on while the agent is away; the new agent has an empty state folder.
    bench.center.put(cmRef('r1', 'a'), configMap('r1', 'a', { v: '2' }))
    bench.center.remove(cmRef('r1', 'b'))
    const sent = bench.center.reports.length
    const second = await bench.agent({ record: 'restart-r1' })
    expect(second.stateDir).not.toBe(first.stateDir)
    expect(await second.poll()).toMatchObject({ ok: true, updated: 1, pruned: 1, created: 0 })
    expect(data(await bench.edge.get(cmRef('r1', 'a')))).toEqual({ v: '2' })
    expect(await bench.edge.get(cmRef('r1', 'b'))).toBeUndefined()
    expect(await uids('r1', ['a', 'c'])).toEqual([before[0], before[2]])
    const foreign = foreignIn({ ...bench.center, reports: bench.center.reports.slice(sent) })
    // The namespace was made at the edge too: foreign as well.
    expect(foreign.map((p) => p.name).sort()).toEqual(['f', 'r1'])
    const f = await bench.edge.get(cmRef('r1', 'f'))
    expect(data(f)).toEqual({ by: 'edge' })
    expect(f?.metadata.annotations?.[DOWNSYNCED_ANNOTATION]).toBeUndefined()
    // And f stays when the center drops it.
    bench.center.remove(cmRef('r1', 'f'))
    expect(await second.poll()).toMatchObject({ ok: true, pruned: 0 })
    expect(data(await bench.edge.get(cmRef('r1', 'f')))).toEqual({ by: 'edge' })
  })

  it('refuses an object that replaced its own under the same name, a copied marker and all', async () => {
    await placed('r2', 'restart-r2')
    const [old] = await uids('r2', ['a'])
    await bench.edge.call('DELETE', '/api/v1/namespaces/r2/configmaps/a')
    const copy = configMap('r2', 'a', { by: 'someone' })
    const marker = { [DOWNSYNCED_ANNOTATION]: 'true', [AGENT_ANNOTATION]: `${AGENT_NS}/restart-r2` }
    const made = await bench.edge.call('POST', '/api/v1/namespaces/r2/configmaps', {
      ...copy,
      metadata: { ...copy.metadata, annotations: marker },
    })
    expect(made.body.metadata.uid).not.toBe(old)
    bench.center.put(cmRef('r2', 'a'), configMap('r2', 'a', { v: '2' }))
    const second = await bench.agent({ record: 'restart-r2' })
    expect(await second.poll()).toMatchObject({ ok: true, updated: 0, problems: 1 })
    expect(foreignIn(bench.center).map((p) => p.name)).toEqual(['a'])
    expect(second.inspect().owned.has('/configmaps/r2/a')).toBe(false)
    bench.center.remove(cmRef('r2', 'a'))
    expect(await second.poll()).toMatchObject({ ok: true, pruned: 0 })
    expect(data(await bench.edge.get(cmRef('r2', 'a')))).toEqual({ by: 'someone' })
  })

  it('applies, prunes and adopts nothing while its record cannot be read', async () => {
    await placed('r3', 'restart-r3')
    await putShard(bench.edge, 'restart-r3', { objects: '{"cut short' })
    bench.center.put(cmRef('r3', 'a'), configMap('r3', 'a', { v: '2' }))
    bench.center.remove(cmRef('r3', 'b'))
    const second = await bench.agent({ record: 'restart-r3' })
    const sent = bench.center.reports.length
    for (let i = 0; i < 2; i++) {
      const r = await second.poll()
      expect(r).toMatchObject({ ok: false, outcome: 'failed', created: 0, pruned: 0 })
      expect(r.error).toMatch(/ownership record.*restart-r3-0/)
    }
    expect(bench.center.reports.length).toBe(sent)
    expect(data(await bench.edge.get(cmRef('r3', 'a')))).toEqual({ v: '1' })
    expect(await bench.edge.get(cmRef('r3', 'b'))).toBeDefined()
    // Someone deletes the broken record: the objects are foreign now, and nothing is deleted.
    await bench.edge.call('DELETE', `/api/v1/namespaces/${AGENT_NS}/configmaps/restart-r3-0`)
    expect(await second.poll()).toMatchObject({ ok: true, pruned: 0, updated: 0, problems: 3 })
    expect(await bench.edge.get(cmRef('r3', 'b'))).toBeDefined()
    expect(data(await bench.edge.get(cmRef('r3', 'a')))).toEqual({ v: '1' })
  })

  it('reads its record again when someone else wrote it, and carries on', async () => {
    const first = await placed('r4', 'restart-r4')
    const entries = await recordEntries(bench.edge, 'restart-r4')
    await putShard(bench.edge, 'restart-r4', { objects: JSON.stringify(entries) })
    bench.center.remove(cmRef('r4', 'c'))
    const failed = await first.poll()
    expect(failed).toMatchObject({ ok: false })
    expect(failed.error).toMatch(/changed in the edge cluster/)
    expect(await first.poll()).toMatchObject({ ok: true, problems: 0 })
    expect(await bench.edge.get(cmRef('r4', 'c'))).toBeUndefined()
    expect(Object.keys(await recordEntries(bench.edge, 'restart-r4')).sort()).toEqual([
      '/configmaps/r4/a',
      '/configmaps/r4/b',
      '/namespaces//r4',
    ])
  })

  it("imports an earlier version's owned.json once, and moves a corrupt one aside", async () => {
    await placed('r5', 'restart-r5')
    const entries = await recordEntries(bench.edge, 'restart-r5')
    const dir = await tempStateDir()
    await writeFile(join(dir, 'owned.json'), JSON.stringify({ objects: entries }))
    bench.center.put(cmRef('r5', 'a'), configMap('r5', 'a', { v: '2' }))
    const upgraded = await bench.agent({ stateDir: dir, record: 'restart-r5-new' })
    expect(await upgraded.poll()).toMatchObject({ ok: true, updated: 1, problems: 0 })
    expect(Object.keys(await recordEntries(bench.edge, 'restart-r5-new')).sort()).toEqual(
      Object.keys(entries).sort()
    )
    const files = await readdir(dir)
    expect(files).not.toContain('owned.json')
    expect(files.filter((f) => f.startsWith('owned.json.imported-'))).toHaveLength(1)
    // A corrupt file imports nothing and deletes nothing: everything is foreign to that agent.
    const broken = await tempStateDir()
    await writeFile(join(broken, 'owned.json'), '{"objects": [oops')
    bench.center.remove(cmRef('r5', 'b'))
    const lost = await bench.agent({ stateDir: broken, record: 'restart-r5-lost' })
    expect(await lost.poll()).toMatchObject({ ok: true, pruned: 0, problems: 3 })
    expect(await bench.edge.get(cmRef('r5', 'b'))).toBeDefined()
    expect((await readdir(broken)).some((f) => f.startsWith('owned.json.corrupt-'))).toBe(true)
  })
})
