/**
 * A Node program of this repository (the watch relay, a simulated edge cluster, an edge agent) as
 * a supervised child of `npm start`: run under this Node (process.execPath with
 * --experimental-strip-types, as `npm start` itself), in its own process group (so a Ctrl-C in
 * the terminal reaches `npm start` alone, which then stops the children gracefully), its output
 * appended to a log file. When it exits on its own (a crash, a kill, a dependency unreachable at
 * start) it is started again after an exponential backoff with jitter (reset once a run lasted
 * `healthyMs`), and `onSpawn` reports each new pid. `stop()` ends the supervision, then SIGTERMs
 * the child (the relay drains pending keys and saves its cursors; an agent finishes its poll),
 * escalating to SIGKILL after a grace period.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { closeSync, openSync, writeSync } from 'node:fs'
import type { Logger } from '../../lib/log.ts'
import { type BackoffPolicy, backoffDelay } from '../../lib/relay/backoff.ts'
import { stopGroup } from './process-group.ts'

export const RELAY_MAIN = 'infra/relay/main.ts'
export const EDGE_SIM_MAIN = 'infra/edge-sim/main.ts'
export const EDGE_AGENT_MAIN = 'infra/edge-agent/main.ts'

export type SuperviseOptions = {
  /** What the logs call it: `relay`, `edge florin`, `agent florin`. */
  name: string
  /** The program, relative to `cwd` (RELAY_MAIN, EDGE_SIM_MAIN, EDGE_AGENT_MAIN). */
  main: string
  /** The repository root (the child's working directory). */
  cwd: string
  /** The program's command-line arguments. */
  args: string[]
  /** Added to this process's environment. */
  env: Record<string, string>
  logFile: string
  log: Logger
  /**
   * Node arguments that run the program in place of `--experimental-strip-types main`: its
   * bundle (program-bundles.ts), or a stand-in program in tests.
   */
  command?: string[]
  backoff?: BackoffPolicy
  /** A run at least this long resets the backoff (default 30 s). */
  healthyMs?: number
  /** Called with the pid of every child started, and how many restarts preceded it. */
  onSpawn?(pid: number, restarts: number): void
}

export type Supervisor = {
  /** The running child's pid, undefined while waiting to restart. */
  pid(): number | undefined
  restarts(): number
  stop(graceMs?: number): Promise<void>
}

const DEFAULT_POLICY: BackoffPolicy = { baseMs: 1000, maxMs: 30_000 }

export function childArgv(opts: Pick<SuperviseOptions, 'main' | 'args' | 'command'>): string[] {
  return [...(opts.command ?? ['--experimental-strip-types', opts.main]), ...opts.args]
}

export function supervise(opts: SuperviseOptions): Supervisor {
  const policy = opts.backoff ?? DEFAULT_POLICY
  const healthyMs = opts.healthyMs ?? 30_000
  let child: ChildProcess | undefined
  let exited: Promise<void> = Promise.resolve()
  let restarts = 0
  let failures = 0
  let stopping = false
  let timer: ReturnType<typeof setTimeout> | undefined

  const launch = () => {
    timer = undefined
    if (stopping) return
    const fd = openSync(opts.logFile, 'a')
    writeSync(
      fd,
      `\n--- ${opts.name} starting at ${new Date().toISOString()} (restart ${restarts}) ---\n`
    )
    const started = Date.now()
    const c = spawn(process.execPath, childArgv(opts), {
      cwd: opts.cwd,
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', fd, fd],
      detached: true,
    })
    closeSync(fd)
    child = c
    exited = new Promise<void>((resolve) => {
      let ended = false
      const onEnd = (why: string) => {
        if (ended) return
        ended = true
        if (child === c) child = undefined
        resolve()
        if (stopping) return
        failures = Date.now() - started >= healthyMs ? 1 : failures + 1
        const delay = backoffDelay(failures, policy, Math.random)
        opts.log.warn(`${opts.name} exited; restarting`, {
          why,
          retryInMs: delay,
          log: opts.logFile,
        })
        restarts += 1
        timer = setTimeout(launch, delay)
      }
      c.once('error', (e) => onEnd(`${opts.name} failed to run: ${e.message}`))
      c.once('exit', (code, signal) => onEnd(signal ? `killed by ${signal}` : `exit code ${code}`))
    })
    if (c.pid !== undefined) opts.onSpawn?.(c.pid, restarts)
  }

  launch()
  return {
    pid: () => child?.pid,
    restarts: () => restarts,
    async stop(graceMs = 10_000) {
      stopping = true
      if (timer) clearTimeout(timer)
      const pid = child?.pid
      if (pid !== undefined) await stopGroup(pid, graceMs)
      await Promise.race([exited, new Promise((r) => setTimeout(r, 1000))])
    },
  }
}
