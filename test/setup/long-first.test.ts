/**
 * longFirst (test/setup/long-first.ts): the long files first within their project, the rest in
 * place; the sequencer's list of long files names real program-starting files.
 */
import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { longFirst } from './long-first.ts'
import { LONG_ISOLATED } from './sequencer.ts'

const inA = (f: string) => f.startsWith('a')

describe('longFirst', () => {
  it('moves the long files of the project to its first places, others keep theirs', () => {
    expect(longFirst(['a1', 'b1', 'a2', 'a3'], inA, (f) => f === 'a3')).toEqual([
      'a3',
      'b1',
      'a1',
      'a2',
    ])
    expect(longFirst(['b1', 'a1', 'b2', 'a2', 'a3'], inA, (f) => f !== 'a1')).toEqual([
      'b1',
      'a2',
      'b2',
      'a3',
      'a1',
    ])
  })

  it('changes nothing without long files or without files of the project', () => {
    const files = ['a1', 'b1', 'a2']
    expect(longFirst(files, inA, () => false)).toEqual(files)
    expect(longFirst(['b1', 'b2'], inA, () => true)).toEqual(['b1', 'b2'])
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
