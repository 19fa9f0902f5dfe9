import { describe, expect, it } from 'vitest'
import { BELL_SHARDS, bellShard, byShard } from '../../../lib/edge/bell-shards.ts'

describe('bell shards', () => {
  it('puts a key on one stable shard and spreads many keys over all of them', () => {
    const keys = Array.from({ length: 2000 }, (_, i) => `imw-${i}-mb-${i * 7919}`)
    expect(bellShard(keys[0]!)).toBe(bellShard(keys[0]!))
    const counts = new Array<number>(BELL_SHARDS).fill(0)
    for (const k of keys) counts[bellShard(k)]!++
    expect(Math.min(...counts)).toBeGreaterThan(2000 / BELL_SHARDS / 2)
  })

  it('groups rung versions by shard: one ring per shard touched', () => {
    const versions = new Map(Array.from({ length: 100 }, (_, i) => [`k${i}`, i] as const))
    const groups = byShard(versions)
    expect(groups.size).toBeLessThanOrEqual(BELL_SHARDS)
    expect([...groups.values()].reduce((n, g) => n + g.size, 0)).toBe(100)
    for (const [shard, g] of groups) for (const k of g.keys()) expect(bellShard(k)).toBe(shard)
  })

  it('puts a shared manifest’s key in every shard’s group', () => {
    const groups = byShard(
      new Map([
        ['shared:x', 3],
        ['mb', 2],
      ])
    )
    expect(groups.size).toBe(BELL_SHARDS)
    for (const g of groups.values()) expect(g.get('shared:x')).toBe(3)
    expect([...groups.values()].filter((g) => g.has('mb')).length).toBe(1)
  })
})
