import { describe, expect, it } from 'vitest'
import { fmt, formatTable } from '../../bench/table.ts'

describe('fmt', () => {
  it('formats figures for reading', () => {
    expect(fmt(4.56789)).toBe('4.6')
    expect(fmt(4.56789, 2)).toBe('4.57')
    expect(fmt(1234.56)).toBe('1235')
    expect(fmt(Number.NaN)).toBe('-')
    expect(fmt(Number.POSITIVE_INFINITY)).toBe('-')
  })
})

describe('formatTable', () => {
  it('aligns text left and numbers right', () => {
    const out = formatTable(
      ['name', 'ops/s'],
      [
        ['get', '12.5'],
        ['create (POST)', 3],
      ]
    )
    expect(out.split('\n')).toEqual([
      '  name           ops/s',
      '  get             12.5',
      '  create (POST)      3',
    ])
  })

  it('treats ratios and dashes as numbers', () => {
    const out = formatTable(
      ['x', 'r'],
      [
        ['a', '0.25x'],
        ['bb', '-'],
      ],
      ''
    )
    expect(out.split('\n')).toEqual(['x       r', 'a   0.25x', 'bb      -'])
  })

  it('renders a header alone and short rows', () => {
    expect(formatTable(['a', 'b'], [])).toBe('  a  b')
    expect(formatTable(['a', 'b'], [['x']], '')).toBe('a  b\nx')
  })
})
