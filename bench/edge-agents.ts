/**
 * A fleet of real edge agents in this process: for each mailbox, the agent of
 * lib/edge-agent/agent.ts (createAgent) with its real center client (createCenterClient: Node's
 * fetch to the hub's edge API over HTTP, or HTTPS trusting `ca`, with that mailbox's own token), its own state folder, and
 * — instead of a real edge cluster — an in-memory EdgeKube (edge-memory-kube.ts). Each agent runs
 * the real poll loop (lib/edge-agent/poll-loop.ts: the interval with ±10% jitter, backoff after
 * failures), first waiting a random part of one interval so the fleet's polls spread across it as
 * agents started at different times do. With `holdSeconds` above 0 each agent runs the held loop
 * instead (lib/edge-agent/held-loop.ts, `Prefer: wait=holdSeconds`, a poll on the copy it holds
 * every interval), as the agent's command does by default. Every edge API request the agents send
 * is counted (edge-requests.ts, `requests()`). `stop()` aborts every loop and waits for it.
 */
import { join } from 'node:path'
import { builtinsFrom } from '../lib/apis/builtins.ts'
import type { ObjectRef } from '../lib/edge/protocol.ts'
import { createAgent, type PollResult } from '../lib/edge-agent/agent.ts'
import { createCenterClient } from '../lib/edge-agent/center-client.ts'
import { runHeldLoop } from '../lib/edge-agent/held-loop.ts'
import { defaultSleep, runPollLoop } from '../lib/edge-agent/poll-loop.ts'
import { silentLogger } from '../lib/log.ts'
import { createMemoryKube } from './edge-memory-kube.ts'
import { markerOf } from './edge-objects.ts'
import { countingClient, noRequests } from './edge-requests.ts'
import type { AgentRequests, PollStats } from './edge-types.ts'

export type FleetMember = { mailbox: string; token: string }

/** An object an edge cluster stored: its ref, its `data.marker`, when (this process's clock). */
export type WriteSeen = { ref: ObjectRef; marker?: string | undefined; atMs: number }

export type FleetOptions = {
  baseUrl: string
  /** PEM of the CA an https center's certificate chains to (npm start's stack). */
  ca?: string
  members: readonly FleetMember[]
  intervalMs: number
  /** Held polls of this many seconds (held-loop.ts); absent or 0: plain polls. */
  holdSeconds?: number
  /**
   * Each agent's first poll comes at a random moment within this (default: one interval), as
   * agents come online at different times; a large fleet spreads its first full answers wider.
   */
  startSpreadMs?: number
  /** A folder for the agents' state folders (one subfolder each). */
  stateRoot: string
  /** Every object an agent's edge cluster stores, with the agent's index. */
  onWrite: (agent: number, seen: WriteSeen) => void
  random?: () => number
}

export type Fleet = {
  stats(): PollStats
  /** Edge API requests the agents sent so far. */
  requests(): AgentRequests
  /** Successful polls of each agent so far. */
  okPolls(): number[]
  /** The first failures seen (at most 5), for the report of a broken run. */
  errors(): string[]
  stop(): Promise<void>
}

export async function startFleet(o: FleetOptions): Promise<Fleet> {
  const random = o.random ?? Math.random
  const builtins = builtinsFrom()
  const stats: PollStats = { polls: 0, unchanged: 0, applied: 0, failed: 0 }
  const ok = o.members.map(() => 0)
  const errors: string[] = []
  const tally = noRequests()
  const record = (i: number, r: PollResult): PollResult => {
    stats.polls++
    if (!r.ok) {
      stats.failed++
      if (errors.length < 5) errors.push(`${o.members[i]?.mailbox}: ${r.outcome}: ${r.error}`)
      return r
    }
    ok[i] = (ok[i] ?? 0) + 1
    if (r.outcome === 'applied') stats.applied++
    else stats.unchanged++
    return r
  }
  const centers = o.members.map((m) =>
    countingClient(
      createCenterClient({
        baseUrl: o.baseUrl,
        ...(o.ca ? { ca: o.ca } : {}),
        mailbox: m.mailbox,
        token: async () => m.token,
      }),
      tally
    )
  )
  const agents = await Promise.all(
    o.members.map((m, i) =>
      createAgent({
        mailbox: m.mailbox,
        center: centers[i]!,
        kube: createMemoryKube({
          onWrite: (ref, obj) =>
            o.onWrite(i, { ref, marker: markerOf(obj), atMs: performance.now() }),
        }),
        stateDir: join(o.stateRoot, String(i)),
        record: { namespace: 'kube-system' },
        builtins,
        log: silentLogger,
      })
    )
  )
  const stop = new AbortController()
  const loops = agents.map(async (agent, i) => {
    await defaultSleep(random() * (o.startSpreadMs ?? o.intervalMs), stop.signal)
    if (stop.signal.aborted) return
    const loop = { intervalMs: o.intervalMs, random, signal: stop.signal, log: silentLogger }
    const center = centers[i]
    if (o.holdSeconds && center?.holdDesired) {
      await runHeldLoop({
        ...loop,
        poll: async (given) => record(i, await agent.poll(given)),
        hold: center.holdDesired.bind(center),
        version: () => agent.inspect().desired?.version,
        holdSeconds: o.holdSeconds,
      })
    } else await runPollLoop({ ...loop, poll: async () => record(i, await agent.poll()) })
  })
  return {
    stats: () => ({ ...stats }),
    requests: () => ({ ...tally }),
    okPolls: () => [...ok],
    errors: () => [...errors],
    async stop() {
      stop.abort()
      await Promise.all(loops)
    },
  }
}
