/**
 * The simulated edge's fault list (lib/edge-sim/faults.ts): parsing its text form, refusing bad
 * entries all at once, and which images a fault hits.
 */
import { describe, expect, it } from 'vitest'
import { faultHits, faultsText, parseFaults } from '../../../lib/edge-sim/faults.ts'

describe('parseFaults', () => {
  it('reads nothing as no faults', () => {
    expect(parseFaults(undefined)).toEqual([])
    expect(parseFaults('  ')).toEqual([])
  })

  it('reads faults with and without an image pattern', () => {
    expect(parseFaults('crash-loop@*:bad, job-fail,image-pull@registry.example/shop:*')).toEqual([
      { kind: 'crash-loop', image: '*:bad' },
      { kind: 'job-fail' },
      { kind: 'image-pull', image: 'registry.example/shop:*' },
    ])
  })

  it('names every bad entry at once', () => {
    const out = parseFaults('oom,crash-loop@,image-pull@a b')
    expect(out).toEqual({ error: expect.stringContaining('"oom"') })
    const error = (out as { error: string }).error
    expect(error).toContain('"crash-loop@"')
    expect(error).toContain('"image-pull@a b"')
  })

  it('writes back what it reads', () => {
    const text = 'crash-loop@*:bad,job-fail'
    const faults = parseFaults(text)
    expect(Array.isArray(faults) && faultsText(faults)).toBe(text)
  })
})

describe('faultHits', () => {
  const faults = [{ kind: 'crash-loop' as const, image: '*:bad' }, { kind: 'job-fail' as const }]

  it.each([
    ['crash-loop', 'shop:bad', true],
    ['crash-loop', 'registry.example/shop:bad', true],
    ['crash-loop', 'shop:good', false],
    ['crash-loop', 'shop:bad2', false],
    ['job-fail', 'anything:1', true],
    ['image-pull', 'shop:bad', false],
  ] as const)('%s hits %s: %s', (kind, image, want) => {
    expect(faultHits(faults, kind, image)).toBe(want)
  })

  it('takes the pattern literally but for *', () => {
    expect(faultHits([{ kind: 'image-pull', image: 'a.b/c' }], 'image-pull', 'axb/c')).toBe(false)
    expect(faultHits([{ kind: 'image-pull', image: 'a.b/c' }], 'image-pull', 'a.b/c')).toBe(true)
  })
})
