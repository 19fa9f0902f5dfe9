/**
 * The held fleet over processes of its own (held-pollers.ts, forked with an IPC channel), each
 * holding an even share of the targets: a process may open no more files than its limit (20,000
 * on this machine, which may not raise it), and each open hold is a socket, so a share is at
 * most HOLDS_PER_PROCESS. Status answers are summed (the most open files of one process kept),
 * full answers are asked of the first process, and the results are joined in target order.
 */
import { type ChildProcess, fork } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { PollTarget } from './edge-poll.ts'
import type { HeldFleetInput, HeldFleetResult } from './held-fleet-run.ts'
import type { HeldIn, HeldOut } from './held-pollers.ts'

const HERE = dirname(fileURLToPath(import.meta.url))

/** Holds one fleet process keeps open at most (each a socket, plus a few for heartbeats). */
export const HOLDS_PER_PROCESS = 4000

type Asker = {
  child: ChildProcess
  ask<T extends HeldOut['t']>(m: HeldIn, answer: T): Promise<Extract<HeldOut, { t: T }>>
}

function forkOne(): Asker {
  const child = fork(join(HERE, 'held-pollers.ts'), [], {
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

/** Results of processes holding consecutive shares, as one fleet's. */
export function joinResults(parts: readonly HeldFleetResult[]): HeldFleetResult {
  const failures: Record<string, number> = {}
  for (const p of parts)
    for (const [why, n] of Object.entries(p.failures)) failures[why] = (failures[why] ?? 0) + n
  const sum = (pick: (r: HeldFleetResult) => number) => parts.reduce((t, p) => t + pick(p), 0)
  return {
    holdStarts: parts.flatMap((p) => p.holdStarts),
    beatStarts: parts.flatMap((p) => p.beatStarts),
    ended: sum((p) => p.ended),
    answered: sum((p) => p.answered),
    failed: sum((p) => p.failed),
    beatsFailed: sum((p) => p.beatsFailed),
    notHeld: sum((p) => p.notHeld),
    answers: parts.flatMap((p) => p.answers),
    peakInFlight: sum((p) => p.peakInFlight),
    peakOpenFiles: Math.max(0, ...parts.map((p) => p.peakOpenFiles)),
    failures,
  }
}

export type HeldProcesses = {
  processes: number
  status(): Promise<{
    held: number
    answered: number
    openFiles: number
    failed: number
    beatsFailed: number
  }>
  full(n: number): Promise<{ done: number; failed: number }>
  stop(): Promise<HeldFleetResult>
  kill(): void
}

/** Starts `input` over as many processes as HOLDS_PER_PROCESS asks, each an even share. */
export function startHeldProcesses(
  input: Omit<HeldFleetInput, 'targets'>,
  targets: readonly PollTarget[],
  perProcess = HOLDS_PER_PROCESS
): HeldProcesses {
  const n = Math.max(1, Math.ceil(targets.length / perProcess))
  const per = Math.ceil(targets.length / n)
  const askers: Asker[] = []
  for (let first = 0; first < targets.length || askers.length === 0; first += per) {
    const a = forkOne()
    // each process opens its first holds over the whole spread: the fleet's rate stays the same
    a.child.send({
      t: 'start',
      input: { ...input, targets: targets.slice(first, first + per) },
    } satisfies HeldIn)
    askers.push(a)
  }
  return {
    processes: askers.length,
    async status() {
      const all = await Promise.all(askers.map((a) => a.ask({ t: 'status' }, 'status')))
      return {
        held: all.reduce((t, s) => t + s.held, 0),
        answered: all.reduce((t, s) => t + s.answered, 0),
        openFiles: Math.max(0, ...all.map((s) => s.openFiles)),
        failed: all.reduce((t, s) => t + s.failed, 0),
        beatsFailed: all.reduce((t, s) => t + s.beatsFailed, 0),
      }
    },
    full: (count) => askers[0]!.ask({ t: 'full', n: count }, 'full'),
    async stop() {
      const all = await Promise.all(askers.map((a) => a.ask({ t: 'stop' }, 'result')))
      return joinResults(all.map((r) => r.result))
    },
    kill() {
      for (const a of askers) if (a.child.exitCode === null) a.child.kill()
    },
  }
}
