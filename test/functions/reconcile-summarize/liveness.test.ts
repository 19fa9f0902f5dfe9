/**
 * Which destinations the summarize step counts as reporting, from both liveness records (the
 * SyncTarget's status heartbeat and the edge's lease, the later one wins): a lease renewed after
 * an old status time keeps an edge reporting, an old lease and status make it stale, a heartbeat
 * report brings it back; while an edge is silent in the window where its return would look like a
 * status refresh, the step asks to run again within a minute.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SYNC_TARGETS } from '../../../lib/apis/gvr.ts'
import { HEARTBEAT_STATUS_MS, readLease, renewLease } from '../../../lib/edge/lease.ts'
import { HEARTBEAT_MS } from '../../../lib/edge/protocol.ts'
import { CLUSTER_ANNOTATION, type KubeObject } from '../../../lib/kube/types.ts'
import { whereKey } from '../../../lib/reconcile/keys.ts'
import { STALE_AFTER_MS } from '../../../lib/summarize/liveness.ts'
import { createWorld, IMW, placeOneConfigMap, type World, WS } from './world.ts'

let w: World
let e3: { space: string; uid: string }

beforeAll(async () => {
  w = await createWorld()
  await placeOneConfigMap(w, 'wide', [{ matchExpressions: [{ key: 'env', operator: 'Exists' }] }])
  for (const e of ['e1', 'e2', 'e3'] as const) await w.heartbeat(e)
  await w.summarize()
  const st = (await w.client.get(IMW, SYNC_TARGETS, 'e3')) as KubeObject
  e3 = { space: st.metadata.annotations?.[CLUSTER_ANNOTATION] ?? '', uid: st.metadata.uid ?? '' }
}, 120_000)
afterAll(() => w?.close())

/** Renews e3's lease `agoMs` before now, as its heartbeat would, without its status. */
const renewed = (agoMs: number) => renewLease(w.hub.deps.kv, e3.space, e3.uid, Date.now() - agoMs)
const summary = async () => {
  await w.summarize()
  return w.placementStatus('wide')
}

describe('summarize: liveness from the status heartbeat and the lease', () => {
  it('counts every edge heard from within three minutes as reporting', async () => {
    expect(await summary()).toMatchObject({ destinations: 3, reportingDestinations: 3 })
  })

  it('keeps an edge reporting on its lease alone, whatever its status time says', async () => {
    await w.heartbeat('e3', 3_600_000)
    await renewed(0)
    expect(await summary()).toMatchObject({ reportingDestinations: 3, staleDestinations: 0 })
  })

  it('calls it stale when both are older than STALE_AFTER_MS', async () => {
    await w.heartbeat('e3', 3_600_000)
    expect(await summary()).toMatchObject({ reportingDestinations: 2, staleDestinations: 1 })
  })

  it("brings it back with the agent's next heartbeat report", async () => {
    await w.report('e3', { heartbeat: true })
    expect((await readLease(w.hub.deps.kv, e3.space, e3.uid))?.renewedAt).toBeGreaterThan(
      Date.now() - 60_000
    )
    expect(await summary()).toMatchObject({ reportingDestinations: 3, staleDestinations: 0 })
  })

  it('runs again within a minute while an edge could come back unseen, not once past that window', async () => {
    const key = whereKey((await w.client.space(WS)).id, 'wide')
    const run = () => w.step('summarize').reconcile(key)
    await w.heartbeat('e3', STALE_AFTER_MS + 1000)
    expect((await run()).requeueAfterMs).toBe(HEARTBEAT_MS)
    await w.heartbeat('e3', HEARTBEAT_STATUS_MS + 60_000)
    expect((await run()).requeueAfterMs).toBe(HEARTBEAT_MS)
    await w.heartbeat('e3', 3_600_000)
    for (const e of ['e1', 'e2'] as const) await w.heartbeat(e)
    // e1 and e2 were just heard: the next run is when the first of them turns stale
    expect((await run()).requeueAfterMs).toBeGreaterThan(STALE_AFTER_MS - 30_000)
  })
})
