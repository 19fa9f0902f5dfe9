/**
 * The rollout step against dynalite: the first revision is adopted as completed at once; an edit
 * is cut as revision 2 only after the settle (the clock is injected: no test sleeps); ten objects
 * applied together are one revision; the revision goes wave by wave behind its gate and soak; a
 * new revision supersedes one in flight from the first wave; waiting on edges it asks to run again
 * within WAITING_POLL_MS; a status write that meets a Conflict is run again on fresh reads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WAITING_POLL_MS } from '../../../functions/reconcile-rollout/reconcile.ts'
import { conflict } from '../../../lib/errors.ts'
import { SETTLE_MS } from '../../../lib/rollout/revision.ts'
import { createWorld, rolloutSpec, type World } from './world.ts'

let w: World
beforeAll(async () => {
  w = await createWorld()
  await w.setConfigMap('cfg', 'v1')
  await w.createRollout('shop', rolloutSpec())
})
afterAll(() => w.close())

describe('the rollout step', () => {
  it('adopts what exists at creation as revision 1, completed at once', async () => {
    const res = await w.run()
    expect(res.outcome).toContain('revision 1 cut')
    const s = await w.status()
    expect(s).toMatchObject({ phase: 'Complete', revision: 1, completedRevision: 1 })
    expect(s.currentWave).toBeUndefined()
    expect(s.waves.map((x: any) => [x.name, x.revision, x.edges])).toEqual([
      ['canary', 1, 1],
      ['rest', 1, 3],
    ])
    expect(s.conditions.find((c: any) => c.type === 'Progressing')).toMatchObject({
      status: 'False',
      reason: 'Complete',
    })
    expect(await w.revisions()).toEqual([1])
    expect((await w.run()).outcome).toBe('unchanged')
  })

  it('cuts an edit as revision 2 only once it stood for the settle time', async () => {
    await w.setConfigMap('cfg', 'v2')
    const first = await w.run()
    expect(first.requeueAfterMs).toBe(SETTLE_MS)
    expect(await w.revisions()).toEqual([1])
    w.advance(SETTLE_MS - 1)
    expect((await w.run()).requeueAfterMs).toBe(1)
    expect(await w.revisions()).toEqual([1])
    w.advance(1)
    expect((await w.run()).outcome).toContain('revision 2 cut')
    expect(await w.revisions()).toEqual([1, 2])
    const s = await w.status()
    expect(s).toMatchObject({
      phase: 'Progressing',
      revision: 2,
      completedRevision: 1,
      currentWave: 'canary',
    })
    expect(s.waves[0]).toMatchObject({ name: 'canary', revision: 2, from: 1, pending: 1 })
    expect(s.waves[1]).toMatchObject({ name: 'rest', revision: 1, ready: 3 })
  })

  it('promotes the next wave only after the gate passed and soaked, then completes', async () => {
    w.edgesAt(['c1'], 2)
    await w.run()
    expect(await w.status()).toMatchObject({ phase: 'WaitingForSoak', currentWave: 'canary' })
    w.advance(9_000)
    expect((await w.run()).requeueAfterMs).toBe(1_000)
    expect((await w.status()).currentWave).toBe('canary')
    w.advance(1_000)
    await w.run()
    const s = await w.status()
    expect(s).toMatchObject({ phase: 'Progressing', currentWave: 'rest' })
    expect(s.waves[1]).toMatchObject({ revision: 2, pending: 3, ready: 0 })
    // Waiting on its edges, it looks at their standings again soon, whatever wakes it.
    expect((await w.run()).requeueAfterMs).toBe(WAITING_POLL_MS)
    w.edgesAt(['r1', 'r2', 'r3'], 2)
    await w.run()
    w.advance(10_000)
    await w.run()
    expect(await w.status()).toMatchObject({ phase: 'Complete', revision: 2, completedRevision: 2 })
    const events = await w.events()
    expect(events.map((e) => e.reason)).toEqual(
      expect.arrayContaining(['WavePromoted', 'RolloutComplete'])
    )
  })

  it('starts again on fresh reads when its status write meets a Conflict', async () => {
    let writes = 0
    const client = {
      ...w.client,
      updateStatus: async (...args: Parameters<typeof w.client.updateStatus>) => {
        writes++
        // A racing run's write came first: the precondition fails once.
        if (writes === 1)
          throw conflict('rollouts', { group: 'edge.kcp.io', name: 'shop' }, 'moved')
        return w.client.updateStatus(...args)
      },
    }
    await w.patchSpec('shop', { paused: true })
    const res = await w.run('shop', { client })
    expect(res.outcome).toContain('status updated')
    expect(writes).toBe(2)
    expect(await w.status()).toMatchObject({ phase: 'Paused' })
    await w.patchSpec('shop', { paused: false })
    await w.run()
  })

  it('makes ten objects applied one after another one revision', async () => {
    const before = await w.revisions()
    for (let i = 0; i < 10; i++) {
      await w.setConfigMap(`many-${i}`, 'x')
      await w.run()
      w.advance(500)
    }
    expect(await w.revisions()).toEqual(before)
    w.advance(SETTLE_MS)
    await w.run()
    const after = await w.revisions()
    expect(after.length).toBe(before.length + 1)
    const s = await w.status()
    expect(s.revision).toBe(after[after.length - 1])
  })

  it('supersedes a revision in flight from the first wave; a wave it reached keeps it', async () => {
    const inFlight = (await w.status()).revision
    w.edgesAt(['c1'], inFlight)
    await w.run()
    w.advance(10_000)
    await w.run()
    expect((await w.status()).currentWave).toBe('rest')
    await w.setConfigMap('cfg', 'v3')
    await w.run()
    w.advance(SETTLE_MS)
    await w.run()
    const s = await w.status()
    expect(s.revision).toBe(inFlight + 1)
    expect(s.currentWave).toBe('canary')
    expect(s.waves[0]).toMatchObject({ revision: inFlight + 1, from: inFlight })
    expect(s.waves[1]).toMatchObject({ revision: inFlight })
    expect((await w.events()).some((e) => e.reason === 'NewRevision')).toBe(true)
  })
})
