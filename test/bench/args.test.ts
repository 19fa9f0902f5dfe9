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

  it('reads the scale flags', () => {
    const o = options(['--scale', '--scale-edges', '1000,10000', '--skip-npm-start'])
    expect(o).toMatchObject({ scale: true, scaleEdges: [1000, 10_000], npmStartEdges: 0 })
    expect(options(['--scale', '--quick', '--npm-start-edges', '7']).npmStartEdges).toBe(7)
    expect(parseArgs(['--scale-edges', '0'])).toMatchObject({ kind: 'error' })
    expect(USAGE).toContain('--scale-edges')
    expect(USAGE).toContain('"goals"')
  })

  it('reads the npm start propagation run: 20 agents (5 quick), its own skip, both with --skip-npm-start', () => {
    expect(options(['--scale'])).toMatchObject({ npmStartAgents: 20, npmStartChanges: 5 })
    expect(options(['--scale', '--quick'])).toMatchObject({ npmStartAgents: 5, npmStartChanges: 3 })
    expect(options(['--quick', '--npm-start-agents', '20']).npmStartAgents).toBe(20)
    const skipped = options(['--scale', '--skip-npm-start-edges'])
    expect(skipped).toMatchObject({ npmStartAgents: 0, npmStartEdges: 1000 })
    expect(options(['--skip-npm-start'])).toMatchObject({ npmStartAgents: 0, npmStartEdges: 0 })
    expect(parseArgs(['--npm-start-changes', '0'])).toMatchObject({ kind: 'error' })
    expect(USAGE).toContain('--skip-npm-start-edges')
  })

  it('reads the storm flags (60 s outage by default)', () => {
    expect(options([])).toMatchObject({ skipStorm: false, stormOutageSeconds: 60 })
    expect(options(['--skip-storm', '--storm-outage-seconds', '30'])).toMatchObject({
      skipStorm: true,
      stormOutageSeconds: 30,
    })
    expect(parseArgs(['--storm-outage-seconds', '0'])).toMatchObject({ kind: 'error' })
    expect(USAGE).toContain('--storm-outage-seconds')
  })

  it('reads the held-poll hold of the edge phase (300 s by default, 0 leaves it out)', () => {
    expect(DEFAULT_OPTIONS.edgeHoldSeconds).toBe(300)
    expect(options(['--edge-hold-seconds', '0']).edgeHoldSeconds).toBe(0)
    expect(options(['--quick', '--edge-hold-seconds', '60']).edgeHoldSeconds).toBe(60)
    expect(parseArgs(['--edge-hold-seconds', '-1'])).toMatchObject({ kind: 'error' })
    expect(USAGE).toContain('--edge-hold-seconds')
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

  it('reads the edge flags', () => {
    const o = options([
      '--edge-agents',
      '20, 200',
      '--poll-interval-ms=2000',
      '--edge-changes',
      '3',
      '--edge-idle-polls=500',
      '--skip-edge-cold',
    ])
    expect(o).toMatchObject({
      edgeAgents: [20, 200],
      pollIntervalMs: 2000,
      edgeChanges: 3,
      edgeIdlePolls: 500,
      edgeColdCost: false,
      skipEdge: false,
    })
    expect(options(['--skip-edge']).skipEdge).toBe(true)
    expect(DEFAULT_OPTIONS).toMatchObject({ edgeAgents: [100, 1000], edgeColdCost: true })
  })

  it('keeps --quick short on the edge phase unless told otherwise', () => {
    const q = options(['--quick'])
    expect(Math.max(...q.edgeAgents)).toBeLessThan(100)
    expect(q.edgeChanges).toBeLessThan(DEFAULT_OPTIONS.edgeChanges)
    expect(q.edgeColdCost).toBe(false)
    expect(options(['--edge-agents', '100,1000', '--quick']).edgeAgents).toEqual([100, 1000])
  })

  it('documents the edge flags', () => {
    for (const flag of [
      '--edge-agents',
      '--poll-interval-ms',
      '--edge-changes',
      '--edge-idle-polls',
      '--skip-edge-cold',
      '--skip-edge',
    ])
      expect(USAGE).toContain(flag)
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
      ['--edge-agents'],
      ['--edge-agents', '0'],
      ['--edge-agents', '10,x'],
      ['--poll-interval-ms', '50'],
      ['--edge-changes', '0'],
      ['--skip-edge=1'],
      ['--constructor'],
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
