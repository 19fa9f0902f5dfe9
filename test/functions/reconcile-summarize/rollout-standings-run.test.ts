/**
 * The summarize step over the in-process hub keeps the standings of a placement whose copies
 * carry a rollout-revision stamp (here the source object carries it, so its copies do): read at
 * once or observed in pages, the same standings; a destination turning stale moves its standing,
 * and a new revision stamped moves it and the summary's count of destinations per revision; the placement deleted, its key's run removes its standings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EDGE_PLACEMENTS } from '../../../lib/apis/gvr.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { silentLogger } from '../../../lib/log.ts'
import { runKeys } from '../../../lib/reconcile/run.ts'
import type { Controller } from '../../../lib/reconcile/types.ts'
import { ROLLOUT_REVISION_ANNOTATION } from '../../../lib/rollout/stamp.ts'
import { readSpaceStandings } from '../../../lib/rollout/standing-store.ts'
import { CM, configMap, createWorld, NS, placement, type World, WS } from './world.ts'

let w: World
let wsId = ''
const run = async (c: Controller) => {
  const { keys } = await c.listKeys(undefined, 100)
  for (const r of await runKeys(c, keys, silentLogger)) if (!r.ok) throw new Error(r.outcome)
}
/** The stored standings of Rollout `shop`, by edge name order of the mailboxes. */
const states = async () =>
  (await readSpaceStandings(w.hub.deps.kv, wsId)).flatMap((p) =>
    [...p.edges.values()].map((row) => row.get('shop'))
  )
const ref = { group: '', version: 'v1', resource: 'configmaps', namespace: 'app', name: 'cfg' }

beforeAll(async () => {
  w = await createWorld()
  wsId = (await w.client.space(WS)).id
  await w.client.create(WS, NS, {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'app', labels: { team: 'app' } },
  })
  const cfg = configMap('app', 'cfg')
  await w.client.create(WS, CM, {
    ...cfg,
    metadata: { ...cfg.metadata, annotations: { [ROLLOUT_REVISION_ANNOTATION]: 'shop/2' } },
  })
  await w.client.create(
    WS,
    EDGE_PLACEMENTS,
    placement('p', {
      locationSelectors: [{ matchLabels: { env: 'prod' } }],
      namespaceSelector: { matchLabels: { team: 'app' } },
    })
  )
  await w.placeAll()
  await w.report('e1', { statuses: [{ ...ref, status: {} }] })
  await w.report('e2', { problems: [{ ...ref, reason: 'ApplyFailed', message: 'no room' }] })
  await w.heartbeat('e1')
  await w.heartbeat('e2')
}, 120_000)
afterAll(() => w?.close())

describe('summarize: the standings of stamped copies', () => {
  it('stores each edge’s standing and lists the Rollout in the summary', async () => {
    await w.summarize()
    const got = await states()
    expect(got).toHaveLength(2)
    expect(got).toEqual(
      expect.arrayContaining([
        { revision: 2, state: 'ready' },
        { revision: 2, state: 'failed', reason: 'ApplyFailed', message: 'no room' },
      ])
    )
    expect((await w.placementStatus('p'))?.rollouts).toEqual([
      { name: 'shop', revisions: [{ revision: 2, destinations: 2 }] },
    ])
  })

  it('keeps the same standings when observed in pages', async () => {
    const before = await states()
    await run(w.summarizeWith({ pageSize: 1 }))
    expect(await states()).toEqual(before)
  })

  it('follows a destination turning stale', async () => {
    await w.heartbeat('e1', 3_600_000)
    await w.summarize()
    expect(await states()).toContainEqual({ revision: 2, state: 'stale' })
    await w.heartbeat('e1')
    await w.summarize()
    expect(await states()).toContainEqual({ revision: 2, state: 'ready' })
  })

  it('moves them and the summary with a new revision stamped, the states alike', async () => {
    const cur = (await w.client.get(WS, CM, 'cfg', 'app')) as KubeObject
    const annotations = { [ROLLOUT_REVISION_ANNOTATION]: 'shop/3' }
    await w.client.update(WS, CM, { ...cur, metadata: { ...cur.metadata, annotations } })
    await w.placeAll()
    await w.report('e1', { statuses: [{ ...ref, status: {} }] })
    await w.summarize()
    expect(await states()).toContainEqual({ revision: 3, state: 'ready' })
    expect((await w.placementStatus('p'))?.rollouts).toEqual([
      { name: 'shop', revisions: [{ revision: 3, destinations: 2 }] },
    ])
  })

  it('removes them with the placement', async () => {
    await w.client.delete(WS, EDGE_PLACEMENTS, 'p')
    // The relay sends the key of the placement deleted; the resync no longer lists it.
    const r = await w.step('summarize').reconcile(`${wsId}/p`)
    expect(r.outcome).toContain('1 rollout standings page removed')
    expect(await states()).toEqual([])
  })
})
