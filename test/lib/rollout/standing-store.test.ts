/**
 * The Rollouts' standings in the key-value store (lib/rollout/standing-store.ts), on dynalite with
 * a request counter: pages written only where they differ, shrunk and dropped, read per space in
 * bounded Queries, undecodable values left out, a failed read thrown.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { BudgetDeferred } from '../../../lib/budget/budget-exceeded.ts'
import { runInvocation } from '../../../lib/budget/frames.ts'
import type { Standing } from '../../../lib/rollout/standing.ts'
import {
  dropStandings,
  PAGE_MAILBOXES,
  readSpaceStandings,
  STANDINGS_NS,
  type Standings,
  writeStandings,
} from '../../../lib/rollout/standing-store.ts'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'

let t: TestStore
let failQueries = false
const counter = createRequestCounter()
beforeAll(async () => {
  t = await createTestStore({
    counter,
    fault: ({ op, phase }) => {
      if (failQueries && op === 'Query' && phase === 'before') throw new Error('store down')
    },
  })
})
afterAll(() => t?.close())
beforeEach(() => {
  failQueries = false
})

const ready = (revision: number): Standing => ({ revision, state: 'ready' })
/** `n` mailboxes mb-00000.. each with Rollout `shop` at `standing`. */
function many(n: number, standing: Standing): Standings {
  const out: Standings = new Map()
  for (let i = 0; i < n; i++)
    out.set(`mb-${String(i).padStart(5, '0')}`, new Map([['shop', standing]]))
  return out
}

describe('writeStandings', () => {
  it('writes each page once, then only what changed, in one batched read', async () => {
    const key = 'ws-a/p'
    const s = many(PAGE_MAILBOXES * 2 + 1, ready(1))
    expect(await writeStandings(t.kv, key, s)).toEqual({ written: 3, deleted: 0 })
    counter.reset()
    expect(await writeStandings(t.kv, key, s)).toEqual({ written: 0, deleted: 0 })
    expect(counter.snapshot()).toEqual({ BatchGetItem: 1 })
    s.set('mb-00000', new Map([['shop', ready(2)]]))
    counter.reset()
    expect(await writeStandings(t.kv, key, s)).toEqual({ written: 1, deleted: 0 })
    expect(counter.snapshot()).toEqual({ BatchGetItem: 1, UpdateItem: 1 })
  })

  it('deletes the pages past a smaller count', async () => {
    const key = 'ws-b/p'
    await writeStandings(t.kv, key, many(PAGE_MAILBOXES * 3, ready(1)))
    expect(await writeStandings(t.kv, key, many(5, ready(1)))).toEqual({ written: 1, deleted: 2 })
    const keys = (await t.kv.list(STANDINGS_NS, `${key}#`)).map((e) => e.key)
    expect(keys).toEqual([`${key}#0`])
  })

  it('rewrites a page that does not decode', async () => {
    const key = 'ws-c/p'
    await t.kv.put(STANDINGS_NS, `${key}#0`, { format: 99 })
    expect(await writeStandings(t.kv, key, many(1, ready(1)))).toEqual({ written: 1, deleted: 0 })
  })
})

describe('dropStandings', () => {
  it('deletes every page of the key and no other', async () => {
    await writeStandings(t.kv, 'ws-d/gone', many(PAGE_MAILBOXES + 1, ready(1)))
    await writeStandings(t.kv, 'ws-d/kept', many(1, ready(1)))
    expect(await dropStandings(t.kv, 'ws-d/gone')).toBe(2)
    expect((await t.kv.list(STANDINGS_NS, 'ws-d/')).map((e) => e.key)).toEqual(['ws-d/kept#0'])
    expect(await dropStandings(t.kv, 'ws-d/gone')).toBe(0)
  })
})

describe('readSpaceStandings', () => {
  it('reads every placement of the space in pages, none of another space', async () => {
    for (let i = 0; i < 25; i++)
      await writeStandings(t.kv, `ws-e/p${String(i).padStart(2, '0')}`, many(1, ready(i + 1)))
    await writeStandings(t.kv, 'ws-e2/p', many(1, ready(7)))
    counter.reset()
    const got = await readSpaceStandings(t.kv, 'ws-e')
    expect(counter.snapshot()).toEqual({ Query: 2 })
    expect(got.map((g) => g.placement)).toEqual(
      Array.from({ length: 25 }, (_, i) => `p${String(i).padStart(2, '0')}`)
    )
    expect(got[3]?.edges.get('mb-00000')?.get('shop')).toEqual(ready(4))
  })

  it('leaves out a value that does not decode', async () => {
    await writeStandings(t.kv, 'ws-f/p', many(1, ready(1)))
    await t.kv.put(STANDINGS_NS, 'ws-f/q#0', {
      format: 1,
      edges: { mb: { shop: { state: 'odd' } } },
    })
    expect((await readSpaceStandings(t.kv, 'ws-f')).map((g) => g.placement)).toEqual(['p'])
  })

  it('throws when a read fails', async () => {
    failQueries = true
    await expect(readSpaceStandings(t.kv, 'ws-e')).rejects.toThrow('store down')
  })

  it('defers when the invocation has no room for the next Query', async () => {
    const read = () =>
      runInvocation('test', { subrequests: 1, mode: 'strict' }, () =>
        readSpaceStandings(t.kv, 'ws-e')
      )
    await expect(read()).rejects.toBeInstanceOf(BudgetDeferred)
  })
})
