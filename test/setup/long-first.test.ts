/**
 * longFirst (test/setup/long-first.ts): the long files first, the rest in place; the sequencer's
 * list of long files names real program-starting files.
 */
import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { longFirst } from './long-first.ts'
import { LONG_ISOLATED } from './sequencer.ts'

describe('longFirst', () => {
  it('moves the long files to the front in their order, the others keep theirs', () => {
    expect(longFirst(['a1', 'b1', 'a2', 'a3'], (f) => f === 'a3' || f === 'b1')).toEqual([
      'b1',
      'a3',
      'a1',
      'a2',
    ])
  })

  it('changes nothing without long files, or when every file is long', () => {
    const files = ['a1', 'b1', 'a2']
    expect(longFirst(files, () => false)).toEqual(files)
    expect(longFirst(files, () => true)).toEqual(files)
  })
})

describe('LONG_ISOLATED', () => {
  it('names files that exist and start programs (the isolated project)', () => {
    for (const path of LONG_ISOLATED) {
      expect(existsSync(path), path).toBe(true)
      expect(path.startsWith('test/infra/') || path.startsWith('test/fuzz/'), path).toBe(true)
    }
  })
})
