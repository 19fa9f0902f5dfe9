import { describe, expect, it } from 'vitest'
import { bellHandler } from '../../functions/mailbox-bell.ts'
import { durableBell } from '../../functions/mailbox-bell-client.ts'
import { bellShard } from '../../lib/edge/bell-shards.ts'
import { createLogger } from '../../lib/log.ts'

const log = createLogger({ level: 'error' })

/** Shards as Durable Objects would be: one handler each, counting the requests they get. */
function shards() {
  const handlers = new Map<number, ReturnType<typeof bellHandler>>()
  const requests: { shard: number; path: string }[] = []
  return {
    requests,
    fetchShard(shard: number, req: Request) {
      requests.push({ shard, path: new URL(req.url).pathname })
      const h = handlers.get(shard) ?? bellHandler({ startupMs: 0 })
      handlers.set(shard, h)
      return h(req)
    },
  }
}

describe('durableBell', () => {
  it('rings each shard touched once per ring, and answers waits on the key’s shard', async () => {
    const stubs = shards()
    const bell = durableBell(stubs, log)
    const keys = Array.from({ length: 40 }, (_, i) => `mb-${i}`)
    const held = bell.wait('mb-3', 1, { timeoutMs: 10_000 })
    await new Promise((r) => setTimeout(r, 5))
    await bell.ring(new Map(keys.map((k) => [k, 2])))
    expect(await held).toBe('rung')
    const rings = stubs.requests.filter((r) => r.path === '/ring')
    expect(rings.length).toBe(new Set(keys.map((k) => bellShard(k))).size)
    expect(new Set(rings.map((r) => r.shard)).size).toBe(rings.length)
    expect(stubs.requests.find((r) => r.path === '/wait')?.shard).toBe(bellShard('mb-3'))
  })

  it('drops a ring that fails and answers failed to a wait that cannot be asked', async () => {
    const bell = durableBell({ fetchShard: async () => new Response('down', { status: 500 }) }, log)
    await expect(bell.ring(new Map([['a', 1]]))).resolves.toBeUndefined()
    expect(await bell.wait('a', 0, { timeoutMs: 10 })).toBe('failed')
    const broken = durableBell({ fetchShard: async () => new Response('{"outcome":1}') }, log)
    expect(await broken.wait('a', 0, { timeoutMs: 10 })).toBe('failed')
  })
})
