/**
 * The part `rolloutStandings` (reconcile-rollout-standings.ts) over table inputs and the real
 * standings store on dynalite, counting its requests: none for a placement without stamps whose
 * summary lists no Rollout, one batched read when nothing changed, the pages dropped when the
 * stamps are gone or the placement is.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { rolloutStandingsPart } from '../../../functions/reconcile-summarize/reconcile-rollout-standings.ts'
import type { RunInput } from '../../../functions/reconcile-summarize/run-input.ts'
import type { EdgePlacementObject } from '../../../lib/apis/edge-objects.ts'
import {
  dropStandings,
  readSpaceStandings,
  STANDINGS_NS,
  writeStandings,
} from '../../../lib/rollout/standing-store.ts'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { deployment, dest, placementObject, runInput, SPACE, type Table } from './part-fixtures.ts'

let t: TestStore
const counter = createRequestCounter()
beforeAll(async () => {
  t = await createTestStore({ counter })
})
afterAll(() => t?.close())
beforeEach(async () => {
  for (const e of await t.kv.list(STANDINGS_NS)) await t.kv.delete(STANDINGS_NS, e.key)
  counter.reset()
})

const part = () =>
  rolloutStandingsPart({
    write: (key, s) => writeStandings(t.kv, key, s),
    drop: (key) => dropStandings(t.kv, key),
  })

const web = deployment('web', 2)
const ready = { updatedReplicas: 2, availableReplicas: 2, replicas: 2 }
const two = [dest('e1'), dest('e2')]
const stamped: Table = {
  objects: [web],
  destinations: two,
  held: { web: { e1: { status: ready, stamp: 'shop/2' }, e2: { stamp: 'shop/2' } } },
}
const plain: Table = { objects: [web], destinations: two, held: { web: { e1: { status: ready } } } }

/** The run input over `table`, its placement's summary listing `names` as last written. */
async function inputOf(table: Table, names?: string[]): Promise<RunInput> {
  const input = await runInput(table)
  if (!names || !input.scope.mine) return input
  const rollouts = names.map((name) => ({ name, revisions: [{ revision: 2, destinations: 2 }] }))
  const placement = {
    ...placementObject('p'),
    status: { summary: { rollouts } },
  } as unknown as EdgePlacementObject
  return { ...input, scope: { ...input.scope, mine: { ...input.scope.mine, placement } } }
}

const stored = async () =>
  (await readSpaceStandings(t.kv, SPACE)).map((p) => ({
    placement: p.placement,
    edges: Object.fromEntries([...p.edges].map(([mb, row]) => [mb, Object.fromEntries(row)])),
  }))

describe('rolloutStandings', () => {
  it('a placement without stamps, listing no Rollout, costs no store request', async () => {
    expect(await part().run(await inputOf(plain))).toEqual({ done: [] })
    expect(counter.total()).toBe(0)
  })

  it('stores the standings once; unchanged, one batched read and no write', async () => {
    expect(await part().run(await inputOf(stamped))).toEqual({
      done: ['1 rollout standings page written'],
    })
    expect(await stored()).toEqual([
      {
        placement: 'p',
        edges: {
          'imw-1-mb-uid-e1': { shop: { revision: 2, state: 'ready' } },
          'imw-1-mb-uid-e2': { shop: { revision: 2, state: 'pending' } },
        },
      },
    ])
    counter.reset()
    expect(await part().run(await inputOf(stamped, ['shop']))).toEqual({ done: [] })
    expect(counter.snapshot()).toEqual({ BatchGetItem: 1 })
  })

  it('follows a destination turning stale', async () => {
    await part().run(await inputOf(stamped))
    const r = await part().run(await inputOf({ ...stamped, stale: ['e1'] }, ['shop']))
    expect(r).toEqual({ done: ['1 rollout standings page written'] })
    expect((await stored())[0]?.edges['imw-1-mb-uid-e1']).toEqual({
      shop: { revision: 2, state: 'stale' },
    })
  })

  it('drops the pages once the stamps are gone while the summary still lists Rollouts', async () => {
    await part().run(await inputOf(stamped))
    expect(await part().run(await inputOf(plain, ['shop']))).toEqual({
      done: ['1 rollout standings page removed'],
    })
    expect(await stored()).toEqual([])
  })

  it('drops the pages of a key whose placement is gone', async () => {
    await part().run(await inputOf(stamped))
    const gone = await runInput(stamped, { mine: false })
    expect(await part().run(gone)).toEqual({ done: ['1 rollout standings page removed'] })
    expect(await stored()).toEqual([])
  })
})
