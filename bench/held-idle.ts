/**
 * The idle fleet again, holding its polls (issue 38), on the same stack right after the plain
 * one (scale-idle.ts), so the two stand side by side: every mailbox holds one desired-state poll
 * open (`Prefer: wait=<holdSeconds>`) and beats once a minute, from a process of its own
 * (held-pollers.ts). After a warm-up (every hold open, every agent's heartbeat renewed once), one
 * measured window of one hold period: the Worker requests per edge-hour (holds opened and
 * heartbeats sent in it), the center's CPU and store reads per edge-hour, and what the center and
 * the fleet hold per held poll (resident memory and open files of this process — the hub — beside
 * their values before the fleet came, sampled each second; the fleet's own open files). Then the
 * cost of one full desired answer (the fleet sends a few hundred, the center's CPU over them), and
 * a fleet-wide change: one placed ConfigMap patched, the where and translate steps driven over
 * every mailbox as the relay would, and the time from the write until each held poll is answered,
 * beside the bound this machine sets (one full answer's CPU × edges ÷ cores). A Rollout left by
 * the rollout phase is deleted first (untimed), so the change is not held by its waves.
 */
import { type ChildProcess, fork } from 'node:child_process'
import { cpus } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { HEARTBEAT_MS } from '../lib/edge/protocol.ts'
import type { PollTarget } from './edge-poll.ts'
import { driveHook } from './fan-out-hooks.ts'
import { configMapsPath, edgePath, FAN_NAMESPACE, WORKLOAD_WS } from './fan-out-objects.ts'
import { figures, type HeldIdle } from './held-idle-figures.ts'
import type { HeldIn, HeldOut } from './held-pollers.ts'
import type { HubClient } from './hub-client.ts'
import { openFiles, raiseOpenFilesLimit } from './open-files.ts'
import { filler } from './payload.ts'
import { ROLLOUT } from './rollout-objects.ts'
import { summarize } from './stats.ts'

export type { HeldIdle } from './held-idle-figures.ts'

const HERE = dirname(fileURLToPath(import.meta.url))
const READS = /^(GetItem|BatchGetItem|Query|Scan)$/
const FULL_ANSWERS = 300
const ANSWER_LIMIT_MS = 300_000

type Counter = { reset(): void; snapshot(): Record<string, number> }

export type HeldIdleDeps = {
  baseUrl: string
  hub: HubClient
  counter: Counter
  storeCpuMs: () => number
  progress(m: string): void
  refreshEtags(targets: readonly PollTarget[]): Promise<PollTarget[]>
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

/** The fleet process, with a request/answer helper over its IPC channel. */
function forkFleet() {
  const child: ChildProcess = fork(join(HERE, 'held-pollers.ts'), [], {
    execArgv: ['--experimental-strip-types', '--no-warnings'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  })
  const waiting = new Set<(e: Error) => void>()
  child.once('exit', (code) => {
    for (const fail of waiting) fail(new Error(`held pollers exited with ${code}`))
  })
  const ask = <T extends HeldOut['t']>(m: HeldIn, answer: T) =>
    new Promise<Extract<HeldOut, { t: T }>>((resolve, reject) => {
      const on = (out: HeldOut) => {
        if (out.t !== answer) return
        child.off('message', on)
        waiting.delete(reject)
        resolve(out as Extract<HeldOut, { t: T }>)
      }
      waiting.add(reject)
      child.on('message', on)
      child.send(m)
    })
  return { child, ask }
}

/**
 * Each held poll is a socket in the fleet and one in the hub, and a heartbeat may open another:
 * both processes get room for twice the fleet and some (prlimit, as root), and say what they had.
 */
function roomFor(agents: number, fleetPid: number | undefined) {
  const wanted = 2 * agents + 4096
  const hub = raiseOpenFilesLimit(process.pid, wanted)
  const fleet = fleetPid ? raiseOpenFilesLimit(fleetPid, wanted) : 0
  return Math.min(hub, fleet)
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
  const c = process.cpuUsage()
  return (c.user + c.system) / 1000 + deps.storeCpuMs()
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
  const { child, ask } = forkFleet()
  const limit = roomFor(targets.length, child.pid)
  try {
    const openSpreadMs = Math.min(30_000, Math.max(1000, agents * 2))
    progress(
      `held fleet: ${agents} agents open holds of ${o.holdSeconds} s over ${openSpreadMs} ms`
    )
    child.send({
      t: 'start',
      input: {
        baseUrl: deps.baseUrl,
        targets: [...targets],
        holdSeconds: o.holdSeconds,
        intervalMs: o.intervalMs,
        heartbeatMs: HEARTBEAT_MS,
        openSpreadMs,
      },
    } satisfies HeldIn)
    // every hold open and every agent's lease renewed once before the window
    await wait(Math.max(openSpreadMs, HEARTBEAT_MS) + 5000)
    const windowMs = o.holdSeconds * 1000
    progress(`held fleet: one hold period measured (${windowMs / 1000} s)`)
    const w0 = Date.now()
    deps.counter.reset()
    const cpu0 = centerCpu(deps)
    const samples = { rss: [] as number[], heap: [] as number[], files: [] as number[] }
    const fleetFiles: number[] = []
    while (Date.now() - w0 < windowMs) {
      await wait(1000)
      const m = process.memoryUsage()
      samples.rss.push(m.rss)
      samples.heap.push(m.heapUsed)
      samples.files.push(openFiles())
      if (samples.rss.length % 10 === 0)
        fleetFiles.push((await ask({ t: 'status' }, 'status')).openFiles)
    }
    const w1 = Date.now()
    const cpuMs = centerCpu(deps) - cpu0
    let reads = 0
    let writes = 0
    for (const [op, n] of Object.entries(deps.counter.snapshot()))
      if (READS.test(op)) reads += n
      else writes += n

    progress(`held fleet: ${FULL_ANSWERS} full answers, the center's CPU over them`)
    const f0 = centerCpu(deps)
    const full = await ask({ t: 'full', n: FULL_ANSWERS }, 'full')
    const fullAnswerCpuMs = (centerCpu(deps) - f0) / Math.max(1, full.done)

    progress(`held fleet: a fleet-wide change, every held poll answered`)
    const changeAt = Date.now()
    await hub.call('PATCH', `${configMapsPath(`root:${WORKLOAD_WS}`, FAN_NAMESPACE)}/cm-1`, {
      body: { data: { payload: filler(Math.max(1, o.itemBytes - 200), 104_729) } },
      contentType: 'application/merge-patch+json',
    })
    await driveHook(hub, 'where', [o.placementKey], { batch: 1, calls: 1 })
    await translate(targets.map((t) => t.mailbox))
    const translateMs = Date.now() - changeAt
    while (Date.now() - changeAt < ANSWER_LIMIT_MS) {
      const s = await ask({ t: 'status' }, 'status')
      if (s.answered >= agents) break
      await wait(250)
    }
    const { result } = await ask({ t: 'stop' }, 'result')
    return figures(result, {
      agents,
      holdSeconds: o.holdSeconds,
      w0,
      w1,
      cpuMs,
      cores,
      reads,
      writes,
      changeAt,
      translateMs,
      fullAnswerCpuMs,
      perHeldPoll: {
        hubRssBytes: (median(samples.rss) - rss0) / agents,
        hubHeapBytes: (median(samples.heap) - heap0) / agents,
        hubOpenFiles: (median(samples.files) - files0) / agents,
        fleetOpenFiles: Math.max(0, ...fleetFiles) / agents,
      },
      files: { hubBefore: files0, hubHeld: median(samples.files), limit },
    })
  } finally {
    if (child.exitCode === null) child.kill()
  }
}
