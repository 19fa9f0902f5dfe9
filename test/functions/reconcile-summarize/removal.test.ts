/**
 * The deletion lifecycle seen from the workload space, through the in-process hub (world.ts): a
 * placed object with copies gets the edge-removal finalizer; deleted at the source it stays
 * terminating while its tombstones wait, counted `removing` in the placement's summary (also in a
 * row of its own, and at a destination the placement no longer has), and goes once every edge
 * confirmed; an edge that never received the copy (no poll answered with it) and a destination
 * whose SyncTarget is deleted are not waited for; a space whose last
 * placement went keeps a resync key while its removals wait, so the finalizers are lifted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EDGE_PLACEMENTS, LOCATIONS, SYNC_TARGETS } from '../../../lib/apis/gvr.ts'
import { DEPARTURES_NS } from '../../../lib/deletion/departures.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { whereKey } from '../../../lib/reconcile/keys.ts'
import {
  CM,
  configMap,
  createWorld,
  type Edge,
  IMW,
  NS,
  placement,
  type World,
  WS,
} from './world.ts'

const FINALIZER = 'edge.kcp.io/edge-removal'
const cmRef = (name: string) => ({
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespace: 'rm',
  name,
})

let w: World
let key: string

const finalizersOf = async (name: string) =>
  (await w.client.get(WS, CM, name, 'rm'))?.metadata.finalizers
const summary = () => w.placementStatus('rp')
/** Every step, then summarize once more through the controller to see its result. */
async function settle() {
  await w.placeAll()
  await w.summarize()
  return w.step('summarize').reconcile(key)
}
const departures = async () =>
  ((await w.hub.deps.kv.get<{ mailboxes: string[] }>(DEPARTURES_NS, key.split('/')[0]!))?.value
    ?.mailboxes ?? []) as string[]

beforeAll(async () => {
  w = await createWorld()
  await w.client.create(WS, NS, {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'rm', labels: { team: 'rm' } },
  })
  for (const n of ['c1', 'c2']) await w.client.create(WS, CM, configMap('rm', n))
  await w.client.create(
    WS,
    EDGE_PLACEMENTS,
    placement('rp', {
      locationSelectors: [{ matchLabels: { env: 'prod' } }],
      namespaceSelector: { matchLabels: { team: 'rm' } },
    })
  )
  for (const e of ['e1', 'e2', 'e3'] as Edge[]) await w.heartbeat(e)
  key = whereKey((await w.client.space(WS)).id, 'rp')
}, 60_000)

afterAll(async () => {
  await w?.close()
})

describe('deletion lifecycle', () => {
  it('puts the finalizer on placed objects that have copies; nothing is removing', async () => {
    const res = await settle()
    expect(await finalizersOf('c1')).toEqual([FINALIZER])
    expect(await finalizersOf('c2')).toEqual([FINALIZER])
    expect((await w.client.get(WS, NS, 'rm'))?.metadata.finalizers ?? []).not.toContain(FINALIZER)
    const s = await summary()
    expect(s.destinations).toBe(2)
    expect(s.totals.removing).toBe(0)
    expect(res.requeueAfterMs ?? Number.POSITIVE_INFINITY).toBeGreaterThan(5_000)
  })

  it('does not wait for edges that never received the copy: no poll was answered with it', async () => {
    await w.client.create(WS, CM, configMap('rm', 'unseen'))
    // The steps run, but no agent polls before the object is deleted again.
    const steps = async () => {
      for (const name of ['mailbox', 'where', 'translate']) await w.runAll(w.step(name))
      await w.summarize()
    }
    await steps()
    expect(await finalizersOf('unseen')).toEqual([FINALIZER])
    const mb = await w.mailbox('e1')
    const copyPath = `/clusters/${mb.space.id}/api/v1/namespaces/rm/configmaps/unseen`
    expect((await w.hub.call('GET', copyPath)).status).toBe(200)
    await w.client.delete(WS, CM, 'unseen', { namespace: 'rm' })
    await steps()
    await w.summarize()
    expect(await w.client.get(WS, CM, 'unseen', 'rm')).toBeUndefined()
    expect((await w.hub.call('GET', copyPath)).status).toBe(404)
    expect((await summary()).totals.removing).toBe(0)
  })

  it('keeps an object deleted at the source until every edge confirmed, counting removing', async () => {
    await w.client.delete(WS, CM, 'c1', { namespace: 'rm' })
    const res = await settle()
    const held = (await w.client.get(WS, CM, 'c1', 'rm')) as KubeObject
    expect(held.metadata.deletionTimestamp).toBeTruthy()
    let s = await summary()
    expect(s.objectCount).toBe(1)
    expect(s.totals.removing).toBe(2)
    expect(s.objects.find((o: any) => o.name === 'c1')).toMatchObject({ removing: 2, pending: 0 })
    expect(res.requeueAfterMs).toBe(5_000)
    // The mailbox shows it terminating.
    const mb = await w.mailbox('e1')
    const copy = await w.hub.call(
      'GET',
      `/clusters/${mb.space.id}/api/v1/namespaces/rm/configmaps/c1`
    )
    expect(copy.body.metadata.deletionTimestamp).toBeTruthy()
    await w.report('e1', { removed: [cmRef('c1')] })
    await settle()
    expect((await w.client.get(WS, CM, 'c1', 'rm'))?.metadata.finalizers).toEqual([FINALIZER])
    s = await summary()
    expect(s.totals.removing).toBe(1)
    await w.report('e2', { removed: [cmRef('c1')] })
    const done = await settle()
    expect(await w.client.get(WS, CM, 'c1', 'rm')).toBeUndefined()
    s = await summary()
    expect(s.totals.removing).toBe(0)
    expect(s.objects.map((o: any) => o.name)).toEqual(['c2'])
    expect(done.requeueAfterMs ?? Number.POSITIVE_INFINITY).toBeGreaterThan(5_000)
  })

  it('counts removing at a destination the placement no longer has, via departures', async () => {
    const loc = (await w.client.get(IMW, LOCATIONS, 'e2')) as KubeObject
    await w.client.update(IMW, LOCATIONS, {
      ...loc,
      metadata: { ...loc.metadata, labels: { env: 'staging', loc: 'e2' } },
    })
    await settle()
    const e2 = await w.mailbox('e2')
    expect(await departures()).toEqual([e2.name])
    let s = await summary()
    expect(s.destinations).toBe(1)
    expect(s.totals.removing).toBe(1)
    expect(s.objects.find((o: any) => o.name === 'c2')).toMatchObject({ removing: 1 })
    await w.report('e2', { removed: [cmRef('c2')] })
    await settle()
    s = await summary()
    expect(s.totals.removing).toBe(0)
    expect(await departures()).toEqual([])
    expect(await finalizersOf('c2')).toEqual([FINALIZER])
  })

  it('does not wait for a destination whose SyncTarget is gone', async () => {
    await w.client.delete(WS, CM, 'c2', { namespace: 'rm' })
    await settle()
    expect((await w.client.get(WS, CM, 'c2', 'rm'))?.metadata.deletionTimestamp).toBeTruthy()
    expect((await summary()).totals.removing).toBe(1)
    await w.client.delete(IMW, SYNC_TARGETS, 'e1')
    await settle()
    await settle()
    expect(await w.client.get(WS, CM, 'c2', 'rm')).toBeUndefined()
  })

  it('lifts the finalizer of an object whose placement went, through the resync alone', async () => {
    const loc = (await w.client.get(IMW, LOCATIONS, 'e2')) as KubeObject
    await w.client.update(IMW, LOCATIONS, {
      ...loc,
      metadata: { ...loc.metadata, labels: { env: 'prod', loc: 'e2' } },
    })
    await w.client.create(WS, CM, configMap('rm', 'c3'))
    await settle()
    expect(await finalizersOf('c3')).toEqual([FINALIZER])
    await w.client.delete(WS, EDGE_PLACEMENTS, 'rp')
    await settle()
    const spaceKey = `${key.split('/')[0]}/edge-removal`
    const listed = async () => (await w.step('summarize').listKeys(undefined, 1000)).keys
    expect(await listed()).toEqual([spaceKey])
    expect(await finalizersOf('c3')).toEqual([FINALIZER])
    await w.report('e2', { removed: [cmRef('c3')] })
    await settle()
    const c3 = await w.client.get(WS, CM, 'c3', 'rm')
    expect(c3?.metadata.deletionTimestamp).toBeUndefined()
    expect(c3?.metadata.finalizers ?? []).toEqual([])
    expect(await listed()).toEqual([])
  })
})
