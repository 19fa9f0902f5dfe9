/**
 * runKeys and resyncPage: duplicates collapse, one key's failure never stops the others, a batch
 * shares one session (settled after its last key), concurrency is bounded by the step's setting, and the resync cursor walks
 * the keys page by page in the key-value store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger, silentLogger } from '../../../lib/log.ts'
import { resyncPage, runKeys } from '../../../lib/reconcile/run.ts'
import { type Controller, TerminalError } from '../../../lib/reconcile/types.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'

function recorder(over: Partial<Controller> = {}) {
  const seen: string[] = []
  const c: Controller = {
    name: 'test',
    async reconcile(key) {
      seen.push(key)
      if (key === 'bad') throw new Error('boom')
      if (key === 'terminal') throw new TerminalError('never')
      return { outcome: `did ${key}` }
    },
    async listKeys(cursor, limit) {
      const all = ['a', 'b', 'c', 'd', 'e'].filter((k) => cursor === undefined || k > cursor)
      const keys = all.slice(0, limit)
      return all.length > limit ? { keys, next: keys[keys.length - 1] } : { keys }
    },
    ...over,
  }
  return { c, seen }
}

describe('runKeys', () => {
  it('runs each distinct key once and isolates failures', async () => {
    const { c, seen } = recorder()
    const out = await runKeys(c, ['a', 'bad', 'a', 'terminal', 'b'], silentLogger)
    expect(seen).toEqual(['a', 'bad', 'terminal', 'b'])
    expect(out.map((o) => [o.key, o.ok])).toEqual([
      ['a', true],
      ['bad', false],
      ['terminal', false],
      ['b', true],
    ])
    expect(out[0]?.outcome).toBe('did a')
    expect(out[1]?.outcome).toBe('boom')
  })

  it('shares one session per batch', async () => {
    let sessions = 0
    const used: number[] = []
    const { c } = recorder({
      session() {
        const id = ++sessions
        return {
          async reconcile(key: string) {
            used.push(id)
            return { outcome: key }
          },
        }
      },
    })
    await runKeys(c, ['a', 'b', 'c'], silentLogger)
    await runKeys(c, ['d'], silentLogger)
    expect(used).toEqual([1, 1, 1, 2])
  })

  it("settles a batch's session after its last key, and logs a settle that fails", async () => {
    const order: string[] = []
    const lines: string[] = []
    const log = createLogger({ level: 'error', sink: (line) => void lines.push(line) })
    let fail = false
    const { c } = recorder({
      concurrency: 2,
      session: () => ({
        async reconcile(key: string) {
          order.push(key)
          return { outcome: key }
        },
        async settle() {
          order.push('settled')
          if (fail) throw new Error('epoch down')
        },
      }),
    })
    const out = await runKeys(c, ['a', 'b', 'c'], log)
    expect(order).toEqual(['a', 'b', 'c', 'settled'])
    expect(out.every((o) => o.ok)).toBe(true)
    fail = true
    await runKeys(c, ['d'], log)
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['finishing the batch failed'])
  })

  it('never runs more keys at once than the concurrency allows, and keeps result order', async () => {
    let running = 0
    let peak = 0
    const { c } = recorder({
      concurrency: 3,
      async reconcile(key) {
        running++
        peak = Math.max(peak, running)
        await new Promise((r) => setTimeout(r, 5))
        running--
        return { outcome: key }
      },
    })
    const keys = Array.from({ length: 10 }, (_, i) => `k${i}`)
    const out = await runKeys(c, keys, silentLogger)
    expect(peak).toBe(3)
    expect(out.map((o) => o.key)).toEqual(keys)
  })
})

describe('resyncPage', () => {
  let store: TestStore
  beforeAll(async () => {
    store = await createTestStore()
  })
  afterAll(async () => {
    await store.close()
  })

  it('walks every key in bounded pages and wraps around', async () => {
    const { c, seen } = recorder()
    const pages = []
    for (let i = 0; i < 3; i++)
      pages.push(await resyncPage(c, store.kv, { log: silentLogger, limit: 2 }))
    expect(seen).toEqual(['a', 'b', 'c', 'd', 'e'])
    expect(pages.map((p) => p.wrapped)).toEqual([false, false, true])
    await resyncPage(c, store.kv, { log: silentLogger, limit: 2 })
    expect(seen.slice(5)).toEqual(['a', 'b'])
  })
})

describe('the run observer', () => {
  it('is told each run with a bounded outcome class', async () => {
    const { c } = recorder({
      async reconcile(key) {
        if (key === 'bad') throw new Error(`boom ${key}`)
        if (key === 'terminal') throw new TerminalError('never')
        return key === 'later' ? { outcome: 'wait', requeueAfterMs: 5 } : { outcome: `did ${key}` }
      },
    })
    const seen: string[] = []
    await runKeys(c, ['a', 'bad', 'terminal', 'later', 'a'], silentLogger, (step, outcome, s) => {
      expect(s).toBeGreaterThanOrEqual(0)
      seen.push(`${step} ${outcome}`)
    })
    expect(seen).toEqual(['test ok', 'test error', 'test terminal', 'test requeue'])
  })
})
