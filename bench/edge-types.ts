/**
 * The edge phase's shapes: what it runs against (the bench hub over HTTP, its DynamoDB request
 * counter and key-value store, the uncounted inspect store), how it is sized, and what it
 * measures — the idle-poll cost and throughput of `GET /edge/v1/mailboxes/<m>/desired`, and the
 * propagation latency from a source write to applied-at-edge for each agent count, with plain
 * polls and, beside them, held ones (the same agents run by lib/edge-agent/held-loop.ts). Plain
 * types.
 */
import type { ProjectionStore } from '../lib/store/projection-types.ts'
import type { KvStore } from '../lib/store/types.ts'
import type { HubClient } from './hub-client.ts'
import type { RequestCost } from './request-costs.ts'
import type { Counter } from './stack.ts'
import type { Summary } from './stats.ts'

export type EdgeDeps = {
  hub: HubClient
  /** The hub's key-value store (edge credentials are issued into it, in this process). */
  kv: KvStore
  counter: Counter
  settle: () => Promise<void>
  inspect: ProjectionStore
  progress: (message: string) => void
}

export type EdgeOptions = {
  /** Agent counts, one propagation run each (the first one's mailboxes serve the idle runs). */
  agents: number[]
  pollIntervalMs: number
  /** The held-poll runs' `Prefer: wait` (s); 0 leaves them out. */
  holdSeconds: number
  /** Agents one process runs; more are spread over child processes (edge-fleet.ts). */
  agentsPerProcess?: number
  /** Timed source writes per propagation run (the first a create, then updates). */
  changes: number
  /** Polls per side and round of the idle throughput run. */
  idlePolls: number
  /** Unchanged polls counted for the idle cost. */
  costSamples: number
  /** Also count polls after the per-process caches expired (waits ~10 s). */
  coldCost: boolean
  itemBytes: number
  concurrency: number
  /** Translate hook: mailbox keys per call, calls in flight. */
  batch: number
  calls: number
  /** Raw GetItem/s with `concurrency` workers (phase 1 of the same run): a 304 poll's ceiling here. */
  rawGetPerSec: number
  /**
   * Idle windows of one poll interval in both modes (not one hold): the run beside the scale
   * phase's held fleet, which counts the idle costs itself (held-idle.ts), times changes only.
   */
  shortIdle?: boolean
}

/** One side of the idle throughput run, over every round. */
export type PollRate = {
  ops: number
  elapsedMs: number
  opsPerSec: number
  p50Ms: number
  p99Ms: number
}

export type IdleResults = {
  /** Mailboxes polled (each with its own token). */
  mailboxes: number
  /** Requests per 304 poll with warm caches (token, mailbox space). */
  warm: RequestCost
  /** The same after the 10 s caches expired (one poll per mailbox); null when skipped. */
  cold: RequestCost | null
  throughput: {
    rounds: number
    concurrency: number
    real: PollRate
    bare: PollRate
    /** real / bare ops/s of each round. */
    roundRatios: number[]
  }
}

export type PollStats = { polls: number; unchanged: number; applied: number; failed: number }

/** Edge API requests the agents sent, by kind, and how many failed (edge-requests.ts counts them). */
export type AgentRequests = { desired: number; held: number; reports: number; failed: number }

/** How a run's agents ask: a plain poll every interval, or a held poll (held-loop.ts). */
export type PollMode = 'plain' | 'held'

export type ChangeRun = {
  kind: 'create' | 'update'
  /** The write's own response time. */
  writeMs: number
  /** From sending the write until the translate hook calls returned (every manifest written). */
  translateMs: number
  /** Per agent: from sending the write until the object with the new content existed at the edge. */
  latencyMs: Summary
  missing: number
  /**
   * The hub's DynamoDB requests from the write until every agent applied it: the write, translate,
   * the agents' polls and their status reports.
   */
  requests: Record<string, number>
  requestsTotal: number
}

export type PropagationRun = {
  agents: number
  intervalMs: number
  /** Absent in results from before held polls: plain. */
  mode?: PollMode
  /** The held run's `Prefer: wait` (s); absent for plain polls. */
  holdSeconds?: number
  /** Not timed: inventory (SyncTargets, Locations, mailboxes), tokens, placement, agents settled. */
  setupMs: { inventory: number; tokens: number; placement: number; agentsReady: number }
  /**
   * Every agent idle: one poll interval (plain), or one hold plus a few seconds (held, so that each
   * agent's hold ends and starts again inside it); the hub's DynamoDB requests per agent poll.
   */
  idleWindow: {
    ms: number
    polls: number
    requests: Record<string, number>
    requestsTotal: number
  }
  /**
   * The edge API requests the agents sent while idle, and the hub's DynamoDB requests, over one
   * window as long for both modes (one hold plus a few seconds when held runs are made, so that
   * plain agents' heartbeats count as the held ones' do; else the idle window). Absent in results
   * from before held polls.
   */
  idleRequests?: {
    ms: number
    agentRequests: AgentRequests
    requests: Record<string, number>
    requestsTotal: number
  }
  changes: ChangeRun[]
  /** Every (agent, change) sample. */
  latencyMs: Summary
  missing: number
  polls: PollStats
  /** Processes the agents ran in: 1 is the hub's own (edge-fleet.ts), more are children of it. */
  agentProcesses: number
  /** Event-loop delay of the hub's process (and the agents' when they ran in it) during the timed changes, ms. */
  loopDelayMs: { p50: number; p99: number; max: number }
}

export type EdgeResults = {
  intervalMs: number
  itemBytes: number
  rawGetPerSec: number
  idle: IdleResults
  /** Plain polls, one run per agent count. */
  propagation: PropagationRun[]
  /** Held polls over the same agents, one run per agent count (empty when left out). */
  held?: PropagationRun[]
}
