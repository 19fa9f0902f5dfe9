/**
 * The per-store cache of decoded change lists: a key is decoded once while it is kept, the least
 * recently used key goes first past the limit, and a failed decode is not kept.
 */
import { describe, expect, it } from 'vitest'
import { createChangeListCache } from '../../../lib/store/change-list-cache.ts'
import type { ProjectionChange } from '../../../lib/store/projection-codec.ts'

const list = (n: number) =>
  [{ type: 'ADDED', entry: { name: `c${n}` } }] as unknown as ProjectionChange[]

describe('change list cache', () => {
  it('decodes a key once, however many readers ask, even at once', async () => {
    const cache = createChangeListCache()
    let decodes = 0
    const decode = async () => {
      decodes++
      return list(1)
    }
    const [a, b] = await Promise.all([cache.get('k', decode), cache.get('k', decode)])
    expect(await cache.get('k', decode)).toBe(a)
    expect(b).toBe(a)
    expect(decodes).toBe(1)
  })

  it('drops the least recently used key past its limit', async () => {
    const cache = createChangeListCache(2)
    const decoded: string[] = []
    const get = (k: string) =>
      cache.get(k, async () => {
        decoded.push(k)
        return list(0)
      })
    await get('a')
    await get('b')
    await get('a') // a is now the most recent
    await get('c') // evicts b
    expect(cache.size()).toBe(2)
    await get('a')
    await get('b')
    expect(decoded).toEqual(['a', 'b', 'c', 'b'])
  })

  it('keeps no failed decode: the next reader decodes again', async () => {
    const cache = createChangeListCache()
    await expect(
      cache.get('k', async () => Promise.reject(new Error('malformed')))
    ).rejects.toThrow('malformed')
    expect(cache.size()).toBe(0)
    expect(await cache.get('k', async () => list(2))).toEqual(list(2))
  })
})
