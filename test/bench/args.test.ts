import { describe, expect, it } from 'vitest'
import { DEFAULT_OPTIONS, parseArgs, QUICK_OPTIONS, USAGE } from '../../bench/args.ts'

function options(argv: string[]) {
  const parsed = parseArgs(argv)
  if (parsed.kind !== 'run') throw new Error(`expected options, got ${JSON.stringify(parsed)}`)
  return parsed.options
}

describe('parseArgs', () => {
  it('gives the defaults without flags', () => {
    expect(options([])).toEqual(DEFAULT_OPTIONS)
  })

  it('asks for help', () => {
    expect(parseArgs(['--help'])).toEqual({ kind: 'help' })
    expect(parseArgs(['--objects', '5', '-h'])).toEqual({ kind: 'help' })
    expect(USAGE).toContain('--quick')
    expect(USAGE).toContain('--concurrency')
  })

  it('applies the quick preset', () => {
    const o = options(['--quick'])
    expect(o.quick).toBe(true)
    expect(o.objects).toBe(QUICK_OPTIONS.objects)
    expect(o.objects).toBeLessThan(DEFAULT_OPTIONS.objects)
  })

  it('lets explicit flags win over --quick in any order', () => {
    expect(options(['--objects', '7', '--quick']).objects).toBe(7)
    expect(options(['--quick', '--objects=9']).objects).toBe(9)
  })

  it('reads number flags in both spellings', () => {
    const o = options(['--concurrency', '4', '--list-limit=10', '--watch-interval-ms', '0'])
    expect(o.concurrency).toBe(4)
    expect(o.listLimit).toBe(10)
    expect(o.watchIntervalMs).toBe(0)
  })

  it('reads the settle list', () => {
    expect(options(['--settle-ms', '250']).watchSettleMs).toEqual([250])
    expect(options(['--settle-ms=1000, 0']).watchSettleMs).toEqual([1000, 0])
  })

  it('reads the fan-out flags', () => {
    const o = options([
      '--fanout-targets',
      '50',
      '--fanout-objects=7',
      '--fanout-batch',
      '20',
      '--fanout-calls=3',
    ])
    expect(o).toMatchObject({
      fanoutTargets: 50,
      fanoutObjects: 7,
      fanoutBatch: 20,
      fanoutCalls: 3,
    })
    expect(o.skipFanout).toBe(false)
    expect(options(['--skip-fanout']).skipFanout).toBe(true)
    expect(options(['--skip-fanout', '--quick']).skipFanout).toBe(true)
    expect(DEFAULT_OPTIONS).toMatchObject({ fanoutTargets: 1000, fanoutObjects: 100 })
  })

  it('sizes the fan-out down with --quick unless told otherwise', () => {
    expect(options(['--quick']).fanoutTargets).toBeLessThan(DEFAULT_OPTIONS.fanoutTargets)
    expect(options(['--quick']).fanoutObjects).toBeLessThan(DEFAULT_OPTIONS.fanoutObjects)
    expect(options(['--fanout-targets', '1000', '--quick']).fanoutTargets).toBe(1000)
  })

  it('documents the fan-out flags', () => {
    for (const flag of ['--fanout-targets', '--fanout-objects', '--fanout-batch', '--fanout-calls'])
      expect(USAGE).toContain(flag)
    expect(USAGE).toContain('--skip-fanout')
  })

  it('rejects unknown flags, missing and bad values', () => {
    const errors = [
      ['--nope'],
      ['--objects'],
      ['--objects', 'ten'],
      ['--objects', '-3'],
      ['--objects', '0'],
      ['--concurrency', '1.5'],
      ['--max-seconds', '999999'],
      ['--settle-ms', ''],
      ['--settle-ms', '1000,x'],
      ['--fanout-targets', '0'],
      ['--fanout-objects'],
      ['--fanout-batch', '501'],
      ['--fanout-calls', '0'],
      ['--skip-fanout=yes'],
      ['--quick=1'],
      ['objects'],
    ]
    for (const argv of errors) expect(parseArgs(argv).kind, argv.join(' ')).toBe('error')
  })

  it('names the problem', () => {
    expect(parseArgs(['--objects', 'x'])).toEqual({
      kind: 'error',
      message: '--objects needs a whole number',
    })
    expect(parseArgs(['--concurrency', '5000'])).toEqual({
      kind: 'error',
      message: '--concurrency must be between 1 and 1024',
    })
  })
})
