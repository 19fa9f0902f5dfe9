import { afterEach, describe, expect, it } from 'vitest'
import { createDynamoStore } from '../../../lib/store/dynamo-store.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { configMaps, manualClock } from './fixtures.ts'
import { cmEntry, NOW } from './projection-fixtures.ts'

let t: TestStore | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

describe('sweeping projection bodies', () => {
  it('removes old bodies nothing references, keeping referenced and recent ones', async () => {
    const clock = manualClock()
    t = await createTestStore({ now: clock.now, logRetentionMs: 60_000 })
    const [a, b, c] = [cmEntry('a'), cmEntry('b'), cmEntry('c')]
    const hashes = await t.projections.putBodies([a.body, b.body])
    let hc: string | undefined
    const stored = async () => {
      const fresh = createDynamoStore({ client: t!.client, tableName: t!.tableName })
      const all = await fresh.projections.getBodies([...hashes, ...(hc ? [hc] : [])])
      return [...all.keys()].sort()
    }
    const v1 = await t.projections.writeManifest('mb1', {
      desired: [a, b],
      expectedVersion: null,
      now: NOW,
    })
    clock.advance(90_000)
    await t.projections.writeManifest('mb1', {
      desired: [a],
      expectedVersion: v1.manifest.version,
      now: NOW,
    })
    // b is old and out of the manifest, but the DELETED log entry still needs it.
    await t.sweepChangeLog()
    expect(await stored()).toEqual([...hashes].sort())
    clock.advance(70_000)
    ;[hc] = await t.projections.putBodies([c.body]) // unreferenced but recent
    const swept = await t.sweepChangeLog()
    expect(swept.deleted).toBe(1)
    expect(await stored()).toEqual([hashes[0]!, hc!].sort())
    // b comes back when wanted again: the writer's cache is stale by then, so it is rewritten.
    const v3 = await t.projections.writeManifest('mb1', {
      desired: [a, b],
      expectedVersion: (await t.projections.getManifest('mb1'))!.version,
      now: NOW,
    })
    expect(v3.added).toBe(1)
    expect(await stored()).toEqual([...hashes, hc!].sort())
    const { events } = await t.objects.changes({ ...configMaps('mb1'), sinceRv: swept.watermark })
    expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED b'])
  })
})
