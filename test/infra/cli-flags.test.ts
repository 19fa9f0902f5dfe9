import { describe, expect, it } from 'vitest'
import { readFlags } from '../../infra/cli-flags.ts'

const spec = { values: ['--a', '--b'], bools: ['--once'], emptyOk: ['--b'] }

describe('readFlags', () => {
  it('reads `--x v`, `--x=v`, booleans, skips `--`, and keeps the last of a repeated flag', () => {
    const r = readFlags(['--a', '1', '--', '--once', '--a=2', '--b='], spec)
    expect(r).toEqual({
      values: new Map([
        ['--a', '2'],
        ['--b', ''],
      ]),
      bools: new Set(['--once']),
    })
  })

  it.each([
    [['--c', '1'], 'unknown argument: --c'],
    [['--a'], '--a needs a value'],
    [['--a='], '--a needs a value'],
    [['--once=1'], 'unknown argument: --once=1'],
    [['stray'], 'unknown argument: stray'],
  ])('%j -> %s', (argv, message) => {
    expect(readFlags(argv, spec)).toBe(message)
  })
})
