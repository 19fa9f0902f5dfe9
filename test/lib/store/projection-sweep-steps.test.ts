/**
 * The projection sweep as a pass of bounded steps (one Scan page each here): the pass goes
 * through its mark, collect and delete stages over several steps, keeps its state between them,
 * and ends with what one whole pass does — old unreferenced bodies gone, referenced and recent
 * ones kept; a body collected as garbage but referenced again before the delete survives it.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createDynamoStore } from '../../../lib/store/dynamo-store.ts'
import type { BodySweepState } from '../../../lib/store/projection-sweep.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { manualClock } from './fixtures.ts'
import { cmEntry, NOW } from './projection-fixtures.ts'

let t: TestStore | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

/** Steps of one page each until the pass ends; the stages seen, and what was deleted. */
async function passInSteps(store: TestStore, between?: (st: BodySweepState) => Promise<void>) {
  const stages: string[] = []
  let state: BodySweepState | undefined
  let bodies = 0
  for (let steps = 0; steps < 20; steps++) {
    let pages = 0
    const step = await store.sweeps.bodies(state, () => pages++ < 1)
    bodies += step.bodies
    state = step.state
    stages.push(state?.stage ?? 'ended')
    if (!state) break
    await between?.(state)
  }
  return { stages, bodies }
}

async function storedHashes(store: TestStore, hashes: string[]) {
  const fresh = createDynamoStore({ client: store.client, tableName: store.tableName })
  return [...(await fresh.projections.getBodies(hashes)).keys()].sort()
}

describe('the projection sweep in steps', () => {
  it('runs a pass over several steps and ends as a whole pass would', async () => {
    const clock = manualClock()
    t = await createTestStore({ now: clock.now, logRetentionMs: 60_000 })
    const [a, b] = [cmEntry('a'), cmEntry('b')]
    const hashes = await t.projections.putBodies([a.body, b.body])
    await t.projections.writeManifest('mb1', { desired: [a], expectedVersion: null, now: NOW })
    clock.advance(10 * 60_000)
    const [recent] = await t.projections.putBodies([cmEntry('c').body])
    const pass = await passInSteps(t)
    // The stage each step left the pass in: marked, collected, deleted.
    expect(pass.stages).toEqual(['collect', 'delete', 'ended'])
    expect(pass.bodies).toBe(1)
    expect(await storedHashes(t, [...hashes, recent!])).toEqual([hashes[0]!, recent!].sort())
  })

  it('keeps a body referenced again while the pass runs', async () => {
    const clock = manualClock()
    t = await createTestStore({ now: clock.now, logRetentionMs: 60_000 })
    const [a, b] = [cmEntry('a'), cmEntry('b')]
    const [, hb] = await t.projections.putBodies([a.body, b.body])
    const v1 = await t.projections.writeManifest('mb1', {
      desired: [a],
      expectedVersion: null,
      now: NOW,
    })
    clock.advance(10 * 60_000)
    let referenced = false
    const pass = await passInSteps(t, async (st) => {
      if (st.stage !== 'delete' || referenced) return
      referenced = true
      expect(st.candidates).toEqual([hb])
      clock.advance(1000)
      await t!.projections.writeManifest('mb1', {
        desired: [a, b],
        expectedVersion: v1.manifest.version,
        now: NOW,
      })
    })
    expect(referenced).toBe(true)
    expect(pass.bodies).toBe(0)
    expect(await storedHashes(t, [hb!])).toEqual([hb])
  })
})
