/**
 * The storm phase (issue 38, "Storms"), on the scale run's largest stack after the idle fleet:
 * every mailbox gets a simulated agent keeping the real agent's timing rules, in a process of its
 * own (storm-pollers.ts). Once every agent had a heartbeat accepted, the center stops for
 * `outageMs` — the hub stops listening and ends its open connections (NodeHub `pause`), so agents
 * meet refused connects and resets and back off — then resumes on the same port with the same
 * store, and the fleet runs until every agent has polled and sent its due heartbeat again (or
 * `capMs`). Then the center's view of every edge is read the way the center reads it (the
 * SyncTargets and their leases, lib/summarize/liveness.ts): a 60 s outage is shorter than the
 * staleness threshold, so every edge should still, and again, be Heartbeating. storm-summary.ts
 * makes the figures; storm-report.ts renders them.
 */
import { spawn } from 'node:child_process'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { edgeRecordsOf } from '../lib/edge/lease.ts'
import { HEARTBEAT_MS } from '../lib/edge/protocol.ts'
import { CLUSTER_ANNOTATION, type KubeObject } from '../lib/kube/types.ts'
import type { KvStore } from '../lib/store/types.ts'
import type { Liveness } from '../lib/summarize/liveness.ts'
import type { PollTarget } from './edge-poll.ts'
import { edgePath, INVENTORY_WS } from './fan-out-objects.ts'
import type { HubClient } from './hub-client.ts'
import { watchLoopStalls } from './loop-stalls.ts'
import type { StormFleetInput, StormFleetRaw } from './storm-fleet-run.ts'
import {
  type LivenessCounts,
  livenessCounts,
  type StormResult,
  summarizeStorm,
} from './storm-summary.ts'

export type { StormResult } from './storm-summary.ts'

const HERE = dirname(fileURLToPath(import.meta.url))

/** How long the fleet may take to recover after the stop before it is given up on. */
export const STORM_CAP_MS = 10 * 60_000

export type StormDeps = {
  baseUrl: string
  pause(): Promise<void>
  resume(): Promise<void>
  /** The center's liveness of every edge now. */
  liveness(): Promise<LivenessCounts>
  progress(message: string): void
}

export type StormOptions = { intervalMs: number; outageMs: number; capMs?: number }

/** The center's liveness of every SyncTarget of the bench inventory, by its rule. */
export async function benchLiveness(
  hub: HubClient,
  kv: KvStore,
  rule: Liveness | undefined
): Promise<LivenessCounts> {
  const items: KubeObject[] = []
  let cont = ''
  do {
    const q = `?limit=500${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`
    const page = (await hub.call(
      'GET',
      `${edgePath(`root:${INVENTORY_WS}`, 'synctargets')}${q}`
    )) as {
      items?: KubeObject[]
      metadata?: { continue?: string }
    }
    items.push(...(page.items ?? []))
    cont = page.metadata?.continue ?? ''
  } while (cont)
  const spaces = new Set(items.map((st) => st.metadata.annotations?.[CLUSTER_ANNOTATION] ?? ''))
  const leases = new Map<string, Map<string, { renewedAt: number }>>()
  for (const space of spaces) if (space) leases.set(space, await edgeRecordsOf(kv, space))
  const nowMs = Date.now()
  const rows = items.map((st) => {
    const space = st.metadata.annotations?.[CLUSTER_ANNOTATION] ?? ''
    const lease = leases.get(space)?.get(st.metadata.uid ?? '')
    return { st, leaseRenewedAt: lease?.renewedAt }
  })
  return livenessCounts(rows, nowMs, rule)
}

type Line =
  | { event: 'warm'; at: number; warmed: number }
  | { event: 'progress'; recovered: number; lagMaxMs: number; heapMb: number }
  | ({ event: 'result'; lagMaxMs: number } & StormFleetRaw)

export async function runStorm(
  deps: StormDeps,
  targets: readonly PollTarget[],
  o: StormOptions
): Promise<StormResult> {
  const capMs = o.capMs ?? STORM_CAP_MS
  const { progress } = deps
  const child = spawn(
    process.execPath,
    ['--experimental-strip-types', join(HERE, 'storm-pollers.ts')],
    { stdio: ['pipe', 'pipe', 'inherit'] }
  )
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', resolve)
  })
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
  const next = async (): Promise<Line> => {
    const l = await lines.next()
    if (l.done) throw new Error(`storm pollers exited with ${await exited}`)
    return JSON.parse(l.value) as Line
  }
  try {
    const input: StormFleetInput = {
      baseUrl: deps.baseUrl,
      targets: [...targets],
      intervalMs: o.intervalMs,
      heartbeatMs: HEARTBEAT_MS,
      capMs,
      warmCapMs: 3 * HEARTBEAT_MS,
    }
    child.stdin.write(`${JSON.stringify(input)}\n`)
    progress(`storm: ${targets.length} agents warming up (each until a heartbeat is accepted)`)
    const warm = await next()
    if (warm.event !== 'warm') throw new Error('storm pollers: expected the warm-up to end')
    progress(
      `storm: ${warm.warmed}/${targets.length} agents beat; stopping the center for ${o.outageMs / 1000} s`
    )
    await deps.pause()
    const stopAt = Date.now()
    child.stdin.write(`${JSON.stringify({ stopAt })}\n`)
    await new Promise((r) => setTimeout(r, o.outageMs))
    await deps.resume()
    const resumedAt = Date.now()
    progress(
      `storm: the center is back after ${((resumedAt - stopAt) / 1000).toFixed(1)} s; waiting for every agent`
    )
    const hubStalls = watchLoopStalls()
    let result = await next()
    for (; result.event === 'progress'; result = await next())
      progress(
        `storm: ${result.recovered}/${targets.length} agents back (longest event-loop stall: fleet ${result.lagMaxMs} ms, hub ${hubStalls.tick()} ms; fleet heap ${result.heapMb} MB)`
      )
    const hubLagMaxMs = hubStalls.longest()
    hubStalls.stop()
    if (result.event !== 'result') throw new Error('storm pollers: expected the result')
    const liveness = await deps.liveness()
    const s = summarizeStorm(
      result,
      { stopAt, resumedAt, intervalMs: o.intervalMs, outageMs: resumedAt - stopAt, capMs },
      liveness,
      { fleet: result.lagMaxMs, hub: hubLagMaxMs }
    )
    progress(
      `storm: ${s.recovered}/${s.agents} recovered, max ${s.recoverySeconds.max} s; liveness ${JSON.stringify(liveness)}`
    )
    return s
  } finally {
    child.stdin.end()
    if (
      (await Promise.race([exited, new Promise((r) => setTimeout(() => r('late'), 5000))])) ===
      'late'
    )
      child.kill()
  }
}
