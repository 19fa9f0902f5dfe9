/**
 * One value per key-value store object: asked twice for one store, the value is made once and is
 * the same; another store (a second dynalite-backed store) gets its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { perStore } from '../../../lib/store/per-store.ts'
import type { KvStore } from '../../../lib/store/types.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'

let a: TestStore
let b: TestStore
beforeAll(async () => {
  a = await createTestStore()
  b = await createTestStore()
})
afterAll(async () => {
  await a.close()
  await b.close()
})

describe('perStore', () => {
  it('makes one value per store, on first use, and keeps it', () => {
    const made: KvStore[] = []
    const get = perStore((kv) => {
      made.push(kv)
      return new Map<string, number>()
    })
    const first = get(a.kv)
    first.set('x', 1)
    expect(get(a.kv)).toBe(first)
    expect(get(a.kv).get('x')).toBe(1)
    const other = get(b.kv)
    expect(other).not.toBe(first)
    expect(other.has('x')).toBe(false)
    expect(made).toEqual([a.kv, b.kv])
  })

  it('keeps a value that is undefined without making it again', () => {
    let calls = 0
    const get = perStore(() => {
      calls++
      return undefined
    })
    get(a.kv)
    get(a.kv)
    expect(calls).toBe(1)
  })
})
