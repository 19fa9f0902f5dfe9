/**
 * A fleet of real agents spread over processes: `processes` children (edge-fleet-child.ts), each
 * running an even share of the members, so that 10,000 agents do not all wait on one event loop,
 * and the hub's process keeps only the hub. The fleet answers as the in-process one does
 * (edge-agents.ts `Fleet`): poll and request counts summed from the children's latest reports, every write
 * handed to `onWrite` with the agent's global index and the time converted to this process's
 * `performance.now()` (the children send wall-clock times). `startAgents` picks: in this process
 * up to AGENTS_PER_PROCESS agents, else as many processes as that many per process takes.
 */
import { type ChildProcess, fork } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Fleet, type FleetOptions, startFleet } from './edge-agents.ts'
import type { ChildMessage, ChildStart, ChildStats } from './edge-fleet-child.ts'
import { addRequests, noRequests } from './edge-requests.ts'
import type { PollStats } from './edge-types.ts'

/** Agents one process runs; a larger fleet is spread over processes. */
export const AGENTS_PER_PROCESS = 2000
const CHILD = join(fileURLToPath(new URL('.', import.meta.url)), 'edge-fleet-child.ts')
const REPORT_MS = 500
const READY_TIMEOUT_MS = 120_000

/** How many processes a fleet of `agents` takes (1: this one). */
export const processesFor = (agents: number, perProcess = AGENTS_PER_PROCESS) =>
  Math.max(1, Math.ceil(agents / perProcess))

/** The fleet in this process when it is small enough, else over processesFor(...) children. */
export function startAgents(o: FleetOptions, perProcess = AGENTS_PER_PROCESS): Promise<Fleet> {
  const n = processesFor(o.members.length, perProcess)
  return n === 1 ? startFleet(o) : startFleetProcesses(o, n)
}

type Share = {
  child: ChildProcess
  count: number
  last?: ChildStats
  /** Resolves on the child's final report or its exit, whichever comes first. */
  done: Promise<void>
}

function share(o: FleetOptions, first: number, count: number, index: number): Share {
  const child = fork(CHILD, [], {
    execArgv: ['--experimental-strip-types', '--no-warnings'],
    // stdout is the bench's report: a child never writes there
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  })
  let finished = () => {}
  const done = new Promise<void>((r) => {
    finished = r
    child.once('exit', () => r())
  })
  child.on('message', (m: ChildMessage) => {
    if (m.t === 'stats' && m.final) finished()
  })
  const start: ChildStart = {
    t: 'start',
    baseUrl: o.baseUrl,
    ...(o.ca ? { ca: o.ca } : {}),
    members: o.members.slice(first, first + count),
    first,
    intervalMs: o.intervalMs,
    ...(o.holdSeconds ? { holdSeconds: o.holdSeconds } : {}),
    ...(o.startSpreadMs === undefined ? {} : { startSpreadMs: o.startSpreadMs }),
    stateRoot: join(o.stateRoot, `p${index}`),
    reportMs: REPORT_MS,
  }
  child.send(start)
  return { child, count, done }
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((r) => child.once('exit', () => r()))

/** `o.members` over `processes` children, each with an even share. */
export async function startFleetProcesses(o: FleetOptions, processes: number): Promise<Fleet> {
  const per = Math.ceil(o.members.length / processes)
  const shares: Share[] = []
  for (let first = 0, i = 0; first < o.members.length; first += per, i++)
    shares.push(share(o, first, Math.min(per, o.members.length - first), i))
  const stopAll = async () => {
    for (const s of shares) if (s.child.connected) s.child.send({ t: 'stop' })
    await Promise.all(shares.map((s) => s.done))
    await Promise.all(shares.map((s) => exited(s.child)))
  }
  try {
    await Promise.all(
      shares.map(
        (s) =>
          new Promise<void>((ready, fail) => {
            const timer = setTimeout(
              () => fail(new Error('an agent process was not ready in time')),
              READY_TIMEOUT_MS
            )
            s.child.on('message', (m: ChildMessage) => {
              if (m.t === 'write')
                o.onWrite(m.agent, {
                  ref: m.ref,
                  marker: m.marker,
                  atMs: m.at - performance.timeOrigin,
                })
              else if (m.t === 'stats') s.last = m
              else if (m.t === 'ready') {
                clearTimeout(timer)
                ready()
              } else if (m.t === 'failed') {
                clearTimeout(timer)
                fail(new Error(`an agent process failed: ${m.error}`))
              }
            })
            void exited(s.child).then(() => {
              clearTimeout(timer)
              fail(new Error('an agent process exited before it was ready'))
            })
          })
      )
    )
  } catch (e) {
    await stopAll()
    throw e
  }
  const sum = (pick: (p: PollStats) => number) =>
    shares.reduce((t, s) => t + (s.last ? pick(s.last.stats) : 0), 0)
  return {
    stats: () => ({
      polls: sum((p) => p.polls),
      unchanged: sum((p) => p.unchanged),
      applied: sum((p) => p.applied),
      failed: sum((p) => p.failed),
    }),
    requests: () =>
      shares.reduce((t, s) => (s.last ? addRequests(t, s.last.requests) : t), noRequests()),
    okPolls: () => shares.flatMap((s) => s.last?.ok ?? new Array<number>(s.count).fill(0)),
    errors: () => shares.flatMap((s) => s.last?.errors ?? []).slice(0, 5),
    stop: stopAll,
  }
}
