/**
 * Two Rollouts of one space selecting the same objects, through the rollout step against
 * dynalite: the older governs them (its revisions hold them; the younger's leave them out, so an
 * edit of a shared object cuts a revision of the older only); both report a Conflict condition
 * naming the other and one Warning Event each, recorded once however often the step runs; the
 * conflict clears (NoConflict) when the older one is deleted, and the younger then governs the
 * objects (its next revision holds them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROLLOUTS } from '../../../lib/apis/gvr.ts'
import { SETTLE_MS } from '../../../lib/rollout/revision.ts'
import { createWorld, rolloutSpec, type World, WS } from './world.ts'

let w: World
beforeAll(async () => {
  w = await createWorld()
  await w.setConfigMap('cfg', 'v1')
  await w.createRollout('a-old', rolloutSpec())
  await w.createRollout('b-young', rolloutSpec())
})
afterAll(() => w.close())

const conflict = async (name: string) =>
  (await w.status(name)).conditions.find((c: { type: string }) => c.type === 'Conflict')
const keysOf = async (name: string) => {
  const uid = (await w.get(name)).metadata.uid ?? ''
  const records = await w.store.revisions({ spaceId: w.wsId, uid })
  return records.map((r) => r.objects.map((o) => o.key))
}
const conflictEvents = async () =>
  (await w.events()).filter((e) => ['GovernedByOlder', 'OverlapsYounger'].includes(e.reason))

describe('two Rollouts selecting the same objects', () => {
  it('lets the older govern them; both say Conflict, with one Warning Event each', async () => {
    for (let i = 0; i < 2; i++) {
      await w.run('a-old')
      await w.run('b-young')
    }
    expect(await conflict('b-young')).toMatchObject({
      status: 'True',
      reason: 'GovernedByOlder',
    })
    expect((await conflict('b-young')).message).toContain('a-old (1: /configmaps/shop/cfg)')
    expect(await conflict('a-old')).toMatchObject({ status: 'True', reason: 'OverlapsYounger' })
    expect((await conflict('a-old')).message).toContain('b-young (1: /configmaps/shop/cfg)')
    expect(await keysOf('a-old')).toEqual([['/configmaps/shop/cfg']])
    expect(await keysOf('b-young')).toEqual([[]])
    const events = await conflictEvents()
    expect(events.map((e) => [e.type, e.reason, (e.involvedObject as any).name]).sort()).toEqual([
      ['Warning', 'GovernedByOlder', 'b-young'],
      ['Warning', 'OverlapsYounger', 'a-old'],
    ])
  })

  it('cuts an edit of a shared object for the older only', async () => {
    await w.setConfigMap('cfg', 'v2')
    for (const name of ['a-old', 'b-young']) await w.run(name)
    w.advance(SETTLE_MS)
    for (const name of ['a-old', 'b-young']) await w.run(name)
    expect((await w.revisions('a-old')).at(-1)).toBe(2)
    expect(await w.revisions('b-young')).toEqual([1])
    expect(await conflictEvents()).toHaveLength(2)
  })

  it('clears the conflict when the older is deleted: the younger governs from its next revision', async () => {
    await w.client.delete(WS, ROLLOUTS, 'a-old')
    await w.run('b-young')
    expect(await conflict('b-young')).toMatchObject({ status: 'False', reason: 'NoConflict' })
    w.advance(SETTLE_MS)
    await w.run('b-young')
    expect(await w.revisions('b-young')).toEqual([1, 2])
    expect((await keysOf('b-young')).at(-1)).toEqual(['/configmaps/shop/cfg'])
  })
})
