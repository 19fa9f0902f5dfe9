/**
 * CPU of a process tree by part: a busy child of this process is counted in its tree and its part,
 * a difference of readings is what was spent in between, and parts are told by command line.
 */
import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { cpuBetween, cpuOfTree, partOf } from '../../bench/process-cpu.ts'

describe('process CPU', () => {
  it('names the parts of npm start by command line', () => {
    expect(partOf('/x/node_modules/@cloudflare/workerd-linux-64/bin/workerd serve --binary')).toBe(
      'worker'
    )
    expect(partOf('node /x/programs/abc/infra_relay_main.mjs')).toBe('relay')
    expect(partOf('node /x/node_modules/wrangler/bin/wrangler.js dev')).toBe('wrangler')
    expect(partOf('node --experimental-strip-types infra/local/start.ts')).toBe('stack')
  })

  it('subtracts readings part by part, a part new in the later one counted whole', () => {
    expect(cpuBetween({ worker: 100, stack: 50 }, { worker: 160, stack: 50, relay: 7 })).toEqual({
      worker: 60,
      stack: 0,
      relay: 7,
    })
  })

  it.runIf(process.platform === 'linux')('counts a busy descendant of the root', async () => {
    const before = cpuOfTree(process.pid)
    // The child spins until it has used 300 ms of CPU by its own count (however busy the
    // machine), says so and stays alive until told to go: no wall-clock guess in the test.
    const child = spawn(process.execPath, [
      '-e',
      "while (process.cpuUsage().user < 300000); process.stdout.write('done\\n'); process.stdin.resume(); process.stdin.on('end', () => process.exit(0))",
    ])
    await new Promise<void>((r) => child.stdout?.once('data', () => r()))
    // Read while the child still runs: an exited process is no longer in the tree.
    const spent = cpuBetween(before, cpuOfTree(process.pid)).stack ?? 0
    child.stdin?.end()
    await new Promise((r) => child.once('exit', r))
    expect(spent).toBeGreaterThan(100)
    expect(cpuOfTree(2 ** 22 + 12345)).toEqual({})
  })
})
