/**
 * The idle fleet again, holding its polls (issue 38), on the same stack right after the plain
 * one (scale-idle.ts), so the two stand side by side: every mailbox holds one desired-state poll
 * open (`Prefer: wait=<holdSeconds>`) and beats once a minute, from processes of their own
 * (held-fleet-processes.ts: each process may hold no more sockets than its open-file limit). After a warm-up (every hold open, every agent's heartbeat renewed once), one
 * measured window of one hold period: the Worker requests per edge-hour (holds opened and
 * heartbeats sent in it), the center's CPU and store reads per edge-hour, and what the center and
 * the fleet hold per held poll (resident memory and open files of this process — the hub — beside
 * their values before the fleet came, sampled each second; the fleet's own open files). Then, when
 * given, `whileHeld` — the scale run's propagation to real agents, timed while every hold of the
 * fleet stays open. Then the
 * cost of one full desired answer (the fleet sends a few hundred, the center's CPU over them), and
 * a fleet-wide change: one placed ConfigMap patched, the where and translate steps driven over
 * every mailbox as the relay would, and the time from the write until each held poll is answered
 * (waited for 300 s, or twice the bound when longer: held-idle-figures.ts `answerWaitMs`),
 * beside the bound this machine sets (one full answer's CPU × edges ÷ cores). A Rollout left by
 * the rollout phase is deleted first (untimed), so the change is not held by its waves.
 */
import { cpus } from 'node:os'
import { HEARTBEAT_MS } from '../lib/edge/protocol.ts'
import { profiled } from './cpu-profile.ts'
import type { PollTarget } from './edge-poll.ts'
import { driveHook } from './fan-out-hooks.ts'
import { configMapsPath, edgePath, FAN_NAMESPACE, WORKLOAD_WS } from './fan-out-objects.ts'
import { startHeldProcesses } from './held-fleet-processes.ts'
import {
  answerBoundMs,
  answerWaitMs,
  figures,
  type HeldIdle,
  perAnswer,
} from './held-idle-figures.ts'
import type { HubClient } from './hub-client.ts'
import { openFiles, raiseOpenFilesLimit } from './open-files.ts'
import { filler } from './payload.ts'
import { READS, readsOf } from './read-classes.ts'
import { ROLLOUT } from './rollout-objects.ts'
import type { Counter } from './stack.ts'
import { summarize } from './stats.ts'

export type { HeldIdle } from './held-idle-figures.ts'

const FULL_ANSWERS = 300

export type HeldIdleDeps = {
  baseUrl: string
  hub: HubClient
  counter: Counter
  storeCpuMs: () => number
  progress(m: string): void
  refreshEtags(targets: readonly PollTarget[]): Promise<PollTarget[]>
  /** Run once the window is counted, every hold still open (the scale run's propagation). */
  whileHeld?: () => Promise<void>
}

export type HeldIdleOptions = {
  holdSeconds: number
  intervalMs: number
  placementKey: string
  batch: number
  calls: number
  itemBytes: number
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms))
const median = (xs: number[]) => summarize(xs).p50

/** Each held poll is a socket in the fleet and one in the hub: both stay under their limits. */
function roomFor(agents: number) {
  const wanted = agents + 4096
  return raiseOpenFilesLimit(process.pid, wanted)
}

async function deleteRollout(hub: HubClient, progress: (m: string) => void) {
  const path = `${edgePath(`root:${WORKLOAD_WS}`, 'rollouts')}/${ROLLOUT}`
  try {
    await hub.call('DELETE', path)
    progress('held fleet: the rollout phase’s Rollout deleted, so a change is not held by waves')
  } catch {
    // none there (the rollout phase was skipped)
  }
}

/** The center's CPU (hub and store), ms, so far. */
function centerCpu(deps: HeldIdleDeps) {
  return hubCpu() + deps.storeCpuMs()
}

/** This process's (the hub's) CPU, ms, so far. */
function hubCpu() {
  const c = process.cpuUsage()
  return (c.user + c.system) / 1000
}

export async function measureHeldFleet(
  deps: HeldIdleDeps,
  given: readonly PollTarget[],
  o: HeldIdleOptions
): Promise<HeldIdle> {
  const { progress, hub } = deps
  const translate = (keys: string[]) =>
    driveHook(hub, 'translate', keys, { batch: o.batch, calls: o.calls })
  await deleteRollout(hub, progress)
  await translate(given.map((t) => t.mailbox))
  const targets = await deps.refreshEtags(given)
  const agents = targets.length
  const cores = cpus().length
  const heap0 = process.memoryUsage().heapUsed
  const rss0 = process.memoryUsage().rss
  const files0 = openFiles()
  const limit = roomFor(targets.length)
  const openSpreadMs = Math.min(60_000, Math.max(1000, agents * 4))
  const fleet = startHeldProcesses(
    {
      baseUrl: deps.baseUrl,
      holdSeconds: o.holdSeconds,
      intervalMs: o.intervalMs,
      heartbeatMs: HEARTBEAT_MS,
      openSpreadMs,
    },
    targets
  )
  try {
    progress(
      `held fleet: ${agents} agents in ${fleet.processes} processes open holds of ${o.holdSeconds} s over ${openSpreadMs} ms`
    )
    // every hold open and every agent's lease renewed once before the window
    await wait(Math.max(openSpreadMs, HEARTBEAT_MS) + 5000)
    const windowMs = o.holdSeconds * 1000
    progress(`held fleet: one hold period measured (${windowMs / 1000} s)`)
    const failed0 = await fleet.status()
    const w0 = Date.now()
    deps.counter.reset()
    const cpu0 = centerCpu(deps)
    const hub0 = hubCpu()
    const samples = { rss: [] as number[], heap: [] as number[], files: [] as number[] }
    const fleetFiles: number[] = []
    while (Date.now() - w0 < windowMs) {
      await wait(1000)
      const m = process.memoryUsage()
      samples.rss.push(m.rss)
      samples.heap.push(m.heapUsed)
      samples.files.push(openFiles())
      if (samples.rss.length % 10 === 0) fleetFiles.push((await fleet.status()).openFiles)
    }
    const w1 = Date.now()
    const cpuMs = centerCpu(deps) - cpu0
    // the fleet's own idle cost (its holds and heartbeats), per ms of wall time
    const background = { hub: (hubCpu() - hub0) / (w1 - w0), center: cpuMs / (w1 - w0) }
    const failed1 = await fleet.status()
    const windowFailed = {
      holds: failed1.failed - failed0.failed,
      beats: failed1.beatsFailed - failed0.beatsFailed,
    }
    let reads = 0
    let writes = 0
    for (const [op, n] of Object.entries(deps.counter.snapshot()))
      if (READS.test(op)) reads += n
      else writes += n
    const readClasses = readsOf(deps.counter.byClass())

    if (deps.whileHeld) {
      progress(`held fleet: propagation to real agents while ${agents} others hold their polls`)
      await deps.whileHeld()
    }
    progress(`held fleet: ${FULL_ANSWERS} full answers, the center's CPU over them`)
    const f0 = { hub: hubCpu(), store: deps.storeCpuMs(), at: Date.now() }
    const full = await fleet.full(FULL_ANSWERS)
    const fullWallMs = Date.now() - f0.at
    const fullHubMs = perAnswer(hubCpu() - f0.hub, background.hub, fullWallMs, full.done)
    const fullAnswerCpuMs = perAnswer(
      centerCpu(deps) - f0.hub - f0.store,
      background.center,
      fullWallMs,
      full.done
    )
    const answerLimitMs = answerWaitMs(answerBoundMs(fullAnswerCpuMs, agents, cores))

    progress(`held fleet: a fleet-wide change, every held poll answered`)
    const changeAt = Date.now()
    const c0 = { hub: hubCpu(), store: deps.storeCpuMs() }
    await hub.call('PATCH', `${configMapsPath(`root:${WORKLOAD_WS}`, FAN_NAMESPACE)}/cm-1`, {
      body: { data: { payload: filler(Math.max(1, o.itemBytes - 200), 104_729) } },
      contentType: 'application/merge-patch+json',
    })
    await driveHook(hub, 'where', [o.placementKey], { batch: 1, calls: 1 })
    await translate(targets.map((t) => t.mailbox))
    const translateMs = Date.now() - changeAt
    await profiled('held-change', async () => {
      while (Date.now() - changeAt < answerLimitMs) {
        const s = await fleet.status()
        if (s.answered >= agents) break
        await wait(250)
      }
    })
    const changeCpu = { hubMs: hubCpu() - c0.hub, storeMs: deps.storeCpuMs() - c0.store }
    const result = await fleet.stop()
    return figures(result, {
      agents,
      holdSeconds: o.holdSeconds,
      w0,
      w1,
      cpuMs,
      cores,
      reads,
      writes,
      readClasses,
      windowFailed,
      changeAt,
      translateMs,
      fullAnswerCpuMs,
      fullAnswerHubCpuMs: fullHubMs,
      changeCpu,
      perHeldPoll: {
        hubRssBytes: (median(samples.rss) - rss0) / agents,
        hubHeapBytes: (median(samples.heap) - heap0) / agents,
        hubOpenFiles: (median(samples.files) - files0) / agents,
        fleetOpenFiles: (Math.max(0, ...fleetFiles) * fleet.processes) / agents,
      },
      files: { hubBefore: files0, hubHeld: median(samples.files), limit },
    })
  } finally {
    fleet.kill()
  }
}
