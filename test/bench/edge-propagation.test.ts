/**
 * One propagation run with its agents spread over processes (edge-fleet.ts), against the
 * benchmark's own stack: 5 real agents, at most 2 per process (so 3 child processes), must all
 * apply the namespace and both timed changes, with latencies on the hub's clock and the polls of
 * every child summed; then the same agents with held polls of 3 s, each change answered by its
 * held poll well before the next interval's poll; after the runs no agent process is left.
 */
import { readdir, readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setUpEdgeInventory } from '../../bench/edge-inventory.ts'
import { runPropagation } from '../../bench/edge-propagation.ts'
import type { EdgeOptions, PropagationRun } from '../../bench/edge-types.ts'
import { type BenchStack, edgeDepsOf, startBenchStack } from '../../bench/stack.ts'

let stack: BenchStack
let run: PropagationRun
let held: PropagationRun | null
let children: () => number[]

const opts: EdgeOptions = {
  agents: [5],
  pollIntervalMs: 400,
  holdSeconds: 3,
  agentsPerProcess: 2,
  changes: 2,
  idlePolls: 10,
  costSamples: 1,
  coldCost: false,
  itemBytes: 300,
  concurrency: 4,
  batch: 10,
  calls: 2,
  rawGetPerSec: Number.NaN,
}

/** Pids of this process's living children that run an agent share. */
async function agentChildren(): Promise<number[]> {
  const out: number[] = []
  for (const pid of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(pid)) continue
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
    if (ppid !== process.pid) continue
    const cmd = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')
    if (cmd.includes('edge-fleet-child')) out.push(Number(pid))
  }
  return out
}

beforeAll(async () => {
  stack = await startBenchStack()
  const deps = edgeDepsOf(stack, () => {})
  const inv = await setUpEdgeInventory(deps, opts, 5)
  ;({ plain: run, held } = await runPropagation(deps, opts, inv))
  const left = await agentChildren()
  children = () => left
}, 120_000)

afterAll(async () => {
  await stack?.close()
})

describe('runPropagation over agent processes', () => {
  it('ran the agents in three processes, every one applying both changes', () => {
    expect(run.agentProcesses).toBe(3)
    expect(run.missing).toBe(0)
    expect(run.changes.map((c) => c.missing)).toEqual([0, 0])
    expect(run.latencyMs.count).toBe(10)
  })

  it('measures latencies on the hub clock: after the write, within the change timeout', () => {
    for (const c of run.changes) {
      expect(c.latencyMs.min).toBeGreaterThan(0)
      expect(c.latencyMs.max).toBeLessThan(60_000 + 3 * opts.pollIntervalMs)
    }
  })

  it("sums every process's polls", () => {
    expect(run.polls.failed).toBe(0)
    // each agent polled at least twice before the timed part and applied three times
    expect(run.polls.polls).toBeGreaterThanOrEqual(5 * 2)
    expect(run.polls.applied).toBeGreaterThanOrEqual(5 * 3)
    expect(run.polls.polls).toBe(run.polls.applied + run.polls.unchanged)
  })

  it('runs the same agents with held polls, counting the requests they sent while idle', () => {
    expect(held?.mode).toBe('held')
    expect(held?.holdSeconds).toBe(3)
    expect(held?.missing).toBe(0)
    expect(held?.changes.map((c) => c.kind)).toEqual(['update', 'update'])
    const sent = held?.idleRequests?.agentRequests
    // a window of one hold and 5 s: every agent's hold ended and started again
    expect(sent?.held).toBeGreaterThanOrEqual(5)
    expect(sent?.desired).toBe(0)
    // the plain agents' requests are counted over as long a window, their idle window stays one interval
    expect(run.idleRequests?.ms).toBeGreaterThan(7900)
    expect(run.idleWindow.ms).toBeLessThan(2000)
    expect(run.idleRequests?.agentRequests.desired).toBeGreaterThan(5)
    expect(run.idleRequests?.agentRequests.held).toBe(0)
  })

  it('leaves no agent process behind', () => {
    expect(children()).toEqual([])
  })
})
