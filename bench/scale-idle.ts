/**
 * The idle fleet against the in-process center: every mailbox of the scale run polled once per
 * poll interval by bench/idle-pollers.ts, a process of its own, for a few intervals after one
 * warm-up interval (each isolate's caches filled, as in a fleet that has been running). Measured
 * over the timed intervals: the center's DynamoDB requests per poll (reads and writes apart) and
 * the CPU the center used — this process (the hub) and dynalite's, everything of the center but
 * its clients — as a fraction of the machine's cores over the wall time and per poll (the hub's
 * share apart), and the bytes of one poll on the wire. Then the same intervals again with every
 * agent also sending its heartbeat report once per HEARTBEAT_MS, as idle agents do (the first
 * measure is the poll alone): the center's CPU with heartbeats, and per heartbeat the store
 * requests and CPU beyond what the polls of that window cost by the first measure. Before that
 * window, two heartbeat periods in which each agent sends its first heartbeat (it writes the
 * SyncTarget's status; later ones renew a lease) are measured apart (`firstBeat`), and the center
 * is left to serve what it still holds of it (requests whose agents gave up) before the next.
 */
import { spawn } from 'node:child_process'
import { cpus } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { HEARTBEAT_MS } from '../lib/edge/protocol.ts'
import { profiled } from './cpu-profile.ts'
import type { PollTarget } from './edge-poll.ts'
import type { IdleFleetInput, IdleFleetResult } from './idle-fleet-run.ts'
import { READS, readsOf, scaled } from './read-classes.ts'
import type { Counter } from './stack.ts'

const HERE = dirname(fileURLToPath(import.meta.url))

export type IdleFleet = {
  agents: number
  intervalMs: number
  polls: number
  failed: number
  /** Polls not sent: their agent's last request was still in flight (idle-pollers.ts). */
  skipped: number
  /** DynamoDB reads (GetItem, BatchGetItem, Query, Scan) per poll. */
  readsPerPoll: number
  writesPerPoll: number
  /** CPU of the center (hub and store) over wall time, per core: 1 = every core busy. */
  centerCpuFraction: number
  /** The hub's part of it (this process). */
  hubCpuFraction: number
  /** CPU of the center per poll, ms. */
  cpuMsPerPoll: number
  /** The hub's part of it. */
  hubCpuMsPerPoll: number
  /** HTTP/1.1 bytes of one poll, request and answer (idle-pollers.ts). */
  bytesPerPoll: IdleFleetResult['bytes']
  pollLatencyMs: IdleFleetResult['latencyMs']
  /**
   * The same fleet also sending heartbeats (one per agent per `periodMs`): the steady window's
   * cost per heartbeat, beyond its window's polls at the first measure, once every agent has
   * beaten before (lease renewals, and the status refreshes that fall in).
   */
  withHeartbeats: HeartbeatCost & {
    periodMs: number
    /** Center CPU over wall time, per core, polls and heartbeats together. */
    centerCpuFraction: number
    hubCpuFraction: number
    latencyMs: IdleFleetResult['latencyMs']
    /**
     * Store reads per edge-hour by `<operation> <partition class>` over that window (polls and
     * heartbeats together; bench/read-classes.ts).
     */
    readsByClass: Record<string, number>
    /** The same for each agent's first heartbeat (one period before): it writes the status. */
    firstBeat: HeartbeatCost
  }
}

export type HeartbeatCost = {
  heartbeats: number
  failed: number
  /** Heartbeats not sent: their agent's last request was still in flight. */
  skipped: number
  /** Failed heartbeats by why (idle-pollers.ts). */
  failures: Record<string, number>
  requestsPerHeartbeat: number
  writesPerHeartbeat: number
  cpuMsPerHeartbeat: number
}

export type Window = {
  r: IdleFleetResult
  wallMs: number
  hubMs: number
  centerMs: number
  reads: number
  writes: number
  /** The window's store reads by `<operation> <partition class>`. */
  readClasses: Record<string, number>
}

function runFleet(input: IdleFleetInput): Promise<IdleFleetResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--experimental-strip-types', join(HERE, 'idle-pollers.ts')],
      { stdio: ['pipe', 'pipe', 'inherit'] }
    )
    let out = ''
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
    })
    child.once('error', reject)
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`idle pollers exited with ${code}`))
      else resolve(JSON.parse(out) as IdleFleetResult)
    })
    child.stdin.end(JSON.stringify(input))
  })
}

/**
 * The first heartbeats are spread over two periods, not one: each writes its SyncTarget's status
 * (about 15 ms of CPU), and 10,000 of them in one minute is more than 2 cores serve. Agent i beats
 * at the same fraction of this window as of the next one's period, so no lease is older than
 * STALE_AFTER_MS when its next heartbeat comes (that would be a return, writing the status again).
 */
const FIRST_BEATS_MS = 2 * HEARTBEAT_MS

const HOUR_MS = 3_600_000
const QUIET_MS = 2000
const DRAIN_LIMIT_MS = 180_000

/** Waits until the center sent no store request for QUIET_MS (at most DRAIN_LIMIT_MS); how long. */
async function drained(counter: Counter): Promise<number> {
  const total = () => Object.values(counter.snapshot()).reduce((a, b) => a + b, 0)
  const t0 = performance.now()
  let last = total()
  let quietSince = t0
  while (performance.now() - quietSince < QUIET_MS && performance.now() - t0 < DRAIN_LIMIT_MS) {
    await new Promise((r) => setTimeout(r, 250))
    const now = total()
    if (now !== last) {
      last = now
      quietSince = performance.now()
    }
  }
  return performance.now() - t0 - QUIET_MS
}

type IdleDeps = {
  baseUrl: string
  counter: Counter
  storeCpuMs: () => number
  progress(m: string): void
}

/**
 * One measured window of the fleet (`heartbeatMs` 0: polls alone): the pollers' result, its wall
 * time, the hub's and the center's CPU and the store's reads and writes over it.
 */
export async function measureWindow(
  deps: IdleDeps,
  targets: readonly PollTarget[],
  w: { intervalMs: number; durationMs: number; heartbeatMs: number }
): Promise<Window> {
  deps.counter.reset()
  const cpu0 = process.cpuUsage()
  const storeCpu0 = deps.storeCpuMs()
  const t0 = performance.now()
  const r = await runFleet({ baseUrl: deps.baseUrl, targets: [...targets], ...w })
  const wallMs = performance.now() - t0
  const cpu = process.cpuUsage(cpu0)
  const hubMs = (cpu.user + cpu.system) / 1000
  const centerMs = hubMs + (deps.storeCpuMs() - storeCpu0)
  let reads = 0
  let writes = 0
  for (const [op, n] of Object.entries(deps.counter.snapshot())) {
    if (READS.test(op)) reads += n
    else writes += n
  }
  return { r, wallMs, hubMs, centerMs, reads, writes, readClasses: readsOf(deps.counter.byClass()) }
}

/** One warm-up interval (each isolate's caches filled), then `intervals` of polls alone. */
export async function pollWindow(
  deps: IdleDeps,
  targets: readonly PollTarget[],
  opts: { intervalMs: number; intervals: number }
): Promise<Window> {
  const { intervalMs } = opts
  const warm = await runFleet({
    baseUrl: deps.baseUrl,
    targets: [...targets],
    intervalMs,
    durationMs: intervalMs,
  })
  if (warm.failed > 0) throw new Error(`idle window warm-up: ${warm.failed} polls failed`)
  return measureWindow(deps, targets, {
    intervalMs,
    durationMs: intervalMs * opts.intervals,
    heartbeatMs: 0,
  })
}

export async function measureIdleFleet(
  deps: IdleDeps,
  targets: readonly PollTarget[],
  opts: { intervalMs: number; intervals: number }
): Promise<IdleFleet> {
  const { intervalMs } = opts
  deps.progress(`idle fleet: ${targets.length} agents, one warm-up interval of ${intervalMs} ms`)
  const warm = await runFleet({
    baseUrl: deps.baseUrl,
    targets: [...targets],
    intervalMs,
    durationMs: intervalMs,
  })
  if (warm.failed > 0) throw new Error(`idle fleet warm-up: ${warm.failed} polls failed`)
  const measured = (heartbeatMs: number, durationMs = intervalMs * opts.intervals) =>
    measureWindow(deps, targets, { intervalMs, durationMs, heartbeatMs })
  deps.progress(`idle fleet: ${opts.intervals} intervals measured`)
  const { r, wallMs, hubMs, centerMs, reads, writes } = await measured(0)
  const polls = Math.max(1, r.polls)
  deps.progress(`idle fleet: every agent's first heartbeat, over ${FIRST_BEATS_MS} ms`)
  const first = await measured(FIRST_BEATS_MS, FIRST_BEATS_MS)
  // requests whose agents gave up are still being served: the next window starts after them
  const drainMs = await drained(deps.counter)
  deps.progress(`idle fleet: the center drained its backlog in ${(drainMs / 1000).toFixed(1)} s`)
  deps.progress(`idle fleet: ${opts.intervals} intervals with heartbeats every ${HEARTBEAT_MS} ms`)
  const hb = await profiled('idle-heartbeats', () => measured(HEARTBEAT_MS))
  const cost = (w: Window): HeartbeatCost => {
    const beats = Math.max(1, w.r.heartbeats.sent)
    const beyond = (total: number, perPoll: number) => (total - perPoll * w.r.polls) / beats
    return {
      heartbeats: w.r.heartbeats.sent,
      failed: w.r.heartbeats.failed,
      skipped: w.r.heartbeats.skipped,
      failures: w.r.heartbeats.failures,
      requestsPerHeartbeat: beyond(w.reads + w.writes, (reads + writes) / polls),
      writesPerHeartbeat: beyond(w.writes, writes / polls),
      cpuMsPerHeartbeat: beyond(w.centerMs, centerMs / polls),
    }
  }
  const cores = cpus().length
  return {
    agents: targets.length,
    intervalMs,
    polls: r.polls,
    failed: r.failed,
    skipped: r.skipped,
    readsPerPoll: reads / polls,
    writesPerPoll: writes / polls,
    centerCpuFraction: centerMs / wallMs / cpus().length,
    hubCpuFraction: hubMs / wallMs / cpus().length,
    cpuMsPerPoll: centerMs / polls,
    hubCpuMsPerPoll: hubMs / polls,
    bytesPerPoll: r.bytes,
    pollLatencyMs: r.latencyMs,
    withHeartbeats: {
      periodMs: HEARTBEAT_MS,
      ...cost(hb),
      centerCpuFraction: hb.centerMs / hb.wallMs / cores,
      hubCpuFraction: hb.hubMs / hb.wallMs / cores,
      latencyMs: hb.r.heartbeats.latencyMs,
      readsByClass: scaled(hb.readClasses, HOUR_MS / Math.max(1, targets.length * hb.wallMs)),
      firstBeat: cost(first),
    },
  }
}
