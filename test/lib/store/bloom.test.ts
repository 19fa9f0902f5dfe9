/**
 * The Bloom filter never forgets an added string, survives save and load with its seed, keeps
 * false positives rare at its intended size, and refuses a saved filter of another size.
 */
import { describe, expect, it } from 'vitest'
import { loadBloom, newBloom } from '../../../lib/store/bloom.ts'

const hash = (i: number) => `h${i.toString(36).padStart(21, '0')}`

describe('bloom filter', () => {
  it('holds what was added, across save and load', () => {
    const f = newBloom(7)
    for (let i = 0; i < 5000; i++) f.add(hash(i))
    const g = loadBloom(f.save(), 7)
    for (let i = 0; i < 5000; i++) expect(g.has(hash(i))).toBe(true)
    let falsePositives = 0
    for (let i = 5000; i < 15000; i++) if (g.has(hash(i))) falsePositives++
    expect(falsePositives).toBeLessThan(10)
  })

  it('collides differently under another seed, and refuses a wrong size', () => {
    const a = newBloom(1, 64)
    const b = newBloom(2, 64)
    for (let i = 0; i < 20; i++) {
      a.add(hash(i))
      b.add(hash(i))
    }
    const positives = (f: typeof a) =>
      Array.from({ length: 200 }, (_, i) => hash(i + 20)).filter((h) => f.has(h))
    expect(positives(a)).not.toEqual(positives(b))
    expect(() => loadBloom(a.save(), 1)).toThrow(/bloom filter of 8 bytes/)
  })
})
