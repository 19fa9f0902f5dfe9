/**
 * A share of a fleet of real agents in a process of its own (edge-fleet.ts starts it with `fork`):
 * one Node thread cannot run 10,000 agents beside the hub without its event loop delaying their
 * polls, which would count as propagation latency. The parent sends one `start` message (a
 * `ChildStart`: the hub's URL, this share's members and their first global index, the interval,
 * a state folder, the hold for held polls); the child runs startFleet (edge-agents.ts) over them and sends back, as IPC
 * messages, each object its agents' edge clusters store (`write`: the agent's global index, the
 * object's ref, its `data.marker`, and the wall-clock time in ms, since the two processes share
 * no monotonic clock) and, every `reportMs`, its poll and request counts (`stats`). On `stop` it stops its
 * agents, sends the last `stats` (`final`), waits until it has left, and exits; it also exits
 * when the parent goes away.
 * `--help` says this.
 */
import type { ObjectRef } from '../lib/edge/protocol.ts'
import { type FleetMember, startFleet } from './edge-agents.ts'
import type { AgentRequests, PollStats } from './edge-types.ts'

export type ChildStart = {
  t: 'start'
  baseUrl: string
  ca?: string
  members: FleetMember[]
  /** Global index of `members[0]`. */
  first: number
  intervalMs: number
  holdSeconds?: number
  startSpreadMs?: number
  stateRoot: string
  reportMs: number
}

export type ChildWrite = {
  t: 'write'
  agent: number
  ref: ObjectRef
  marker?: string
  /** Wall-clock ms (performance.timeOrigin + performance.now()). */
  at: number
}

export type ChildStats = {
  t: 'stats'
  stats: PollStats
  requests: AgentRequests
  ok: number[]
  errors: string[]
  /** The report sent after the agents stopped: no poll is counted after it. */
  final?: boolean
}
export type ChildMessage = { t: 'ready' } | ChildWrite | ChildStats | { t: 'failed'; error: string }

const send = (m: ChildMessage) => process.send?.(m)
/** Sends `m` and resolves once it has left this process (or cannot). */
const sent = (m: ChildMessage) =>
  new Promise<void>((done) => {
    if (process.send) process.send(m, undefined, {}, () => done())
    else done()
  })

async function main(start: ChildStart) {
  const fleet = await startFleet({
    baseUrl: start.baseUrl,
    ...(start.ca ? { ca: start.ca } : {}),
    members: start.members,
    intervalMs: start.intervalMs,
    ...(start.holdSeconds ? { holdSeconds: start.holdSeconds } : {}),
    ...(start.startSpreadMs === undefined ? {} : { startSpreadMs: start.startSpreadMs }),
    stateRoot: start.stateRoot,
    onWrite: (i, seen) =>
      send({
        t: 'write',
        agent: start.first + i,
        ref: seen.ref,
        ...(seen.marker === undefined ? {} : { marker: seen.marker }),
        at: performance.timeOrigin + seen.atMs,
      }),
  })
  const stats = (): ChildStats => ({
    t: 'stats',
    stats: fleet.stats(),
    requests: fleet.requests(),
    ok: fleet.okPolls(),
    errors: fleet.errors(),
  })
  const timer = setInterval(() => send(stats()), start.reportMs)
  send({ t: 'ready' })
  const stop = async () => {
    clearInterval(timer)
    await fleet.stop()
    await sent({ ...stats(), final: true })
    process.disconnect?.()
    process.exit(0)
  }
  process.on('message', (m: { t?: string }) => {
    if (m?.t === 'stop') void stop()
  })
}

if (process.argv.includes('--help')) {
  process.stdout.write(
    'usage: started by bench/edge-fleet.ts with fork(); runs a share of the agents of a propagation run\n' +
      'messages in: { t: "start", baseUrl, members, first, intervalMs, holdSeconds, startSpreadMs, stateRoot, reportMs }, { t: "stop" }\n' +
      'messages out: ready, write { agent, ref, marker, at }, stats { stats, requests, ok, errors }, failed { error }\n'
  )
} else {
  process.on('disconnect', () => process.exit(0))
  process.once('message', (m: ChildStart) => {
    main(m).catch((e: unknown) => {
      send({ t: 'failed', error: e instanceof Error ? (e.stack ?? e.message) : String(e) })
      process.exit(1)
    })
  })
}
