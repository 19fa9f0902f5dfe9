/**
 * longFirst (test/setup/long-first.ts): the long files first by rank, the rest in place; the
 * sequencer's lists of long files name real files of their projects.
 */
import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { longFirst } from './long-first.ts'
import { LONG_E2E, LONG_ISOLATED } from './sequencer.ts'

describe('longFirst', () => {
  it('moves the ranked files to the front by rank, the others keep their order', () => {
    const rank = (f: string) => ({ a3: 1, b1: 0 })[f]
    expect(longFirst(['a1', 'b1', 'a2', 'a3'], rank)).toEqual(['b1', 'a3', 'a1', 'a2'])
  })

  it('changes nothing without ranked files', () => {
    const files = ['a1', 'b1', 'a2']
    expect(longFirst(files, () => undefined)).toEqual(files)
  })
})

describe('the long files the sequencer knows', () => {
  it('LONG_ISOLATED names files that exist and start programs (the isolated project)', () => {
    for (const path of LONG_ISOLATED) {
      expect(existsSync(path), path).toBe(true)
      expect(path.startsWith('test/infra/') || path.startsWith('test/fuzz/'), path).toBe(true)
    }
  })

  it('LONG_E2E names end-to-end files that exist, each once', () => {
    for (const path of LONG_E2E) {
      expect(existsSync(path), path).toBe(true)
      expect(path.startsWith('test/e2e/'), path).toBe(true)
    }
    expect(new Set(LONG_E2E).size).toBe(LONG_E2E.length)
  })
})
