/**
 * Propagation to real agents through `npm start`'s stack (npm-start-stack.ts: the Worker under
 * wrangler dev, the relay, dynalite, the TLS front), the path users run: N edges registered,
 * bootstrapped and placed as a user and a real edge would (npm-start-edges-setup.ts), then N
 * real agents (lib/edge-agent/ via edge-agents.ts `startFleet`, each over an in-memory edge
 * cluster, talking to the stack's URL and trusting its CA) in two modes one after the other over
 * the same mailboxes: plain polls every `intervalMs` (15 s, the agent's default), then fresh
 * agents holding their polls (`Prefer: wait=holdSeconds`, the agent's default 300; the Worker's
 * hold limit is npm start's default). Nothing else of npm start's poll settings is changed. Per
 * mode, once every agent holds the current copy and polled twice, `changes` source writes (a
 * merge patch of the ConfigMap `prop`'s `data.marker`), each GAP_MS after every agent applied the
 * one before, so that the agents are idle between them; an agent's latency runs from the write's
 * return to the moment its edge cluster stored the new marker (edge-tracker.ts). Nothing is
 * posted to the hooks: the stack's relay drives the Worker, and under wrangler dev a held poll
 * learns of the move from the mailbox's Durable Object bell.
 */
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FleetMember } from './edge-agents.ts'
import { startAgents } from './edge-fleet.ts'
import { changeTimeoutMs, startSpreadMs } from './edge-mode-run.ts'
import { changeMarker, EDGE_NAMESPACE, PROP_CONFIGMAP } from './edge-objects.ts'
import { requestsSince } from './edge-requests.ts'
import { createTracker } from './edge-tracker.ts'
import type { AgentRequests, PollMode, PollStats } from './edge-types.ts'
import { configMapsPath } from './fan-out-objects.ts'
import {
  INITIAL_MARKER,
  type NpmStartEdgesSetup,
  setUpNpmStartEdges,
} from './npm-start-edges-setup.ts'
import { type NpmStartStack, startNpmStack } from './npm-start-stack.ts'
import { type Summary, summarize } from './stats.ts'

export type NpmStartEdgesOptions = {
  agents: number
  /** Timed source writes per mode. */
  changes: number
  /** The plain polls' interval (and the held agents' interval polls on their copy). */
  intervalMs: number
  /** The held mode's `Prefer: wait`. */
  holdSeconds: number
  itemBytes: number
}

export type NpmStartEdgesChange = { writeMs: number; latencyMs: Summary; missing: number }

export type NpmStartEdgesMode = {
  mode: PollMode
  /** 0 for plain polls. */
  holdSeconds: number
  /** From the agents' start until every one held the current copy and polled twice. */
  agentsReadyMs: number
  changes: NpmStartEdgesChange[]
  /** Every (agent, change) sample, from the write's return. */
  latencyMs: Summary
  missing: number
  polls: PollStats
  /** Edge API requests the agents sent over the timed changes. */
  requests: AgentRequests
}

export type NpmStartEdges = {
  agents: number
  intervalMs: number
  setupMs: NpmStartEdgesSetup['setupMs']
  plain: NpmStartEdgesMode
  held: NpmStartEdgesMode
}

/** The pause after every agent applied a change, before the next write. */
export const GAP_MS = 5000
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function waitFor(what: string, check: () => boolean, timeoutMs: number, why: () => string) {
  const until = performance.now() + timeoutMs
  while (!check()) {
    if (performance.now() > until) throw new Error(`npm start edges: ${what} timed out: ${why()}`)
    await sleep(100)
  }
}

type ModeContext = {
  stack: NpmStartStack
  ca: string
  members: readonly FleetMember[]
  space: string
  o: NpmStartEdgesOptions
  progress: (message: string) => void
}

async function runMode(
  c: ModeContext,
  mode: PollMode,
  marks: { current: string; first: number }
): Promise<NpmStartEdgesMode> {
  const { o, progress } = c
  const n = c.members.length
  const holdSeconds = mode === 'held' ? o.holdSeconds : 0
  const label = mode === 'held' ? `held polls (wait=${holdSeconds} s)` : 'plain polls'
  const shm = '/dev/shm'
  const stateRoot = await mkdtemp(join(existsSync(shm) ? shm : tmpdir(), 'edgeplane-bench-'))
  const tracker = createTracker(n)
  const holds = new Map<number, string | undefined>()
  let current = marks.current
  const fleet = await startAgents({
    baseUrl: c.stack.info.url,
    ca: c.ca,
    members: c.members,
    intervalMs: o.intervalMs,
    ...(holdSeconds > 0 ? { holdSeconds } : {}),
    startSpreadMs: startSpreadMs(n, o.intervalMs),
    stateRoot,
    onWrite: (i, { ref, marker, atMs }) => {
      if (ref.resource !== 'configmaps' || ref.name !== PROP_CONFIGMAP) return
      holds.set(i, marker)
      tracker.observe(i, marker, atMs)
    },
  }).catch(async (e: unknown) => {
    await rm(stateRoot, { recursive: true, force: true })
    throw e
  })
  try {
    progress(`npm start edges: ${n} agents, ${label}, every ${o.intervalMs} ms; settling`)
    const t1 = performance.now()
    const holdingCurrent = () => [...holds.values()].filter((m) => m === current).length
    await waitFor(
      `${n} agents settling`,
      () => holdingCurrent() === n && fleet.okPolls().every((k) => k >= 2),
      startSpreadMs(n, o.intervalMs) + changeTimeoutMs(o.intervalMs),
      () => `${holdingCurrent()}/${n} hold ${current}; ${fleet.errors().join('; ')}`
    )
    const agentsReadyMs = performance.now() - t1
    await sleep(GAP_MS)
    const sent0 = fleet.requests()
    const changes: NpmStartEdgesChange[] = []
    const samples: number[] = []
    const path = `${configMapsPath(c.space, EDGE_NAMESPACE)}/${PROP_CONFIGMAP}`
    for (let k = 0; k < o.changes; k++) {
      current = changeMarker(n, marks.first + k)
      const sent = performance.now()
      tracker.begin(current, sent)
      await c.stack.hub.call(path, {
        method: 'PATCH',
        body: { data: { marker: current } },
        contentType: 'application/merge-patch+json',
      })
      const writeMs = performance.now() - sent
      const out = await tracker.wait(changeTimeoutMs(o.intervalMs))
      // from the write's return: an agent cannot apply before it, so nothing is below 0
      const latencies = out.latenciesMs.map((ms) => Math.max(0, ms - writeMs))
      samples.push(...latencies)
      const latencyMs = summarize(latencies)
      progress(
        `npm start edges: ${label}, change ${k + 1}/${o.changes}: p50 ${latencyMs.p50.toFixed(0)} ms, p99 ${latencyMs.p99.toFixed(0)} ms, ${out.missing} missing`
      )
      changes.push({ writeMs, latencyMs, missing: out.missing })
      await sleep(GAP_MS)
    }
    const requests = requestsSince(sent0, fleet.requests())
    return {
      mode,
      holdSeconds,
      agentsReadyMs,
      changes,
      latencyMs: summarize(samples),
      missing: changes.reduce((s, ch) => s + ch.missing, 0),
      polls: fleet.stats(),
      requests,
    }
  } finally {
    await fleet.stop()
    await rm(stateRoot, { recursive: true, force: true })
  }
}

export async function runNpmStartEdges(
  o: NpmStartEdgesOptions,
  progress: (message: string) => void
): Promise<NpmStartEdges> {
  progress(`npm start edges: starting the stack for ${o.agents} real agents`)
  const stack = await startNpmStack()
  try {
    const ca = await readFile(stack.info.caFile, 'utf8')
    const setup = await setUpNpmStartEdges(stack, { ...o, ca }, progress)
    const c: ModeContext = { stack, ca, members: setup.members, space: setup.space, o, progress }
    const plain = await runMode(c, 'plain', { current: INITIAL_MARKER, first: 0 })
    const last = changeMarker(o.agents, o.changes - 1)
    const held = await runMode(c, 'held', { current: last, first: o.changes })
    return { agents: o.agents, intervalMs: o.intervalMs, setupMs: setup.setupMs, plain, held }
  } finally {
    await stack.stop()
  }
}
