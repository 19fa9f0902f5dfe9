/**
 * `wrangler dev` as a child process: the Worker (functions/index.ts, per wrangler.toml, with its
 * `local` environment: the top level is production) on plain
 * http at 127.0.0.1:<port> (behind the local stack's https front, hub-front.ts; `origin` tells it
 * the public URL its requests arrive at), bound to the local dynalite through `--var`, its secrets
 * (the store key, the front secret) read from a private env file (`--env-file`: the Worker sees
 * only that file's variables, never this process's environment, and no secret is on the command
 * line, which every local user can read), its state
 * persisted in the data folder and its output appended to a log file. It runs under this Node (process.execPath, so
 * Node 22) in its own process group (detached), so `stop()` signals wrangler and the workerd it
 * starts together — SIGTERM, then SIGKILL after a grace period — and waits until the whole group
 * is gone: no orphan workerd. Every process of that group inherits `STACK_MARK=<persistTo>` in
 * its environment, so a later start can tell this stack's leftovers (leftovers.ts) from other
 * processes even after wrangler itself died.
 */
import { spawn } from 'node:child_process'
import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { stopGroup } from './process-group.ts'

export type WranglerOptions = {
  /** Folder holding wrangler.toml (the repository root). */
  cwd: string
  port: number
  inspectorPort: number
  persistTo: string
  logFile: string
  /** The public origin (`https://host:port`) request URLs are rewritten to (`--local-upstream`). */
  origin?: string
  /** Worker variables (`--var KEY:VALUE`): nothing secret, the command line is public. */
  vars: Record<string, string>
  /** A private file of `KEY=value` lines the Worker gets as secrets (`--env-file`). */
  envFile?: string
  /**
   * A built Worker (worker-bundle.ts) run as it is (`--no-bundle`); absent: wrangler bundles
   * wrangler.toml's `main` itself, and rebuilds it on edits.
   */
  script?: string
  /** Program and arguments run with process.execPath instead of wrangler (tests). */
  command?: string[]
}

export type WranglerProcess = {
  pid: number
  /** Why it is no longer running (exit code or signal), or undefined while it runs. */
  exitReason(): string | undefined
  /** A reason the Worker cannot come up although wrangler runs on (a failed build), if any. */
  startupProblem(): string | undefined
  /**
   * Whether wrangler reported a crash of the Workers runtime (workerd) since the last call: it
   * restarts workerd itself, which does not always bring the Worker back (hub-supervisor.ts).
   */
  runtimeCrashed(): boolean
  /** Resolves when the wrangler process exits (not necessarily its whole group). */
  exited: Promise<string>
  stop(graceMs?: number): Promise<void>
}

const requireCjs = createRequire(import.meta.url)

/** The wrangler CLI's JS entry, run with process.execPath rather than through npx. */
export function wranglerBin(): string {
  return join(dirname(requireCjs.resolve('wrangler/package.json')), 'bin', 'wrangler.js')
}

/**
 * The environment variable naming the wrangler folder (`--persist-to`) of the stack a process
 * belongs to; wrangler's child and workerd inherit it.
 */
export const STACK_MARK = 'EDGEPLANE_STACK_WRANGLER'

/** The wrangler.toml environment for local use (its top level is production). */
export const LOCAL_ENV = 'local'

export function wranglerArgs(opts: WranglerOptions): string[] {
  const args = ['dev', ...(opts.script ? [opts.script, '--no-bundle'] : [])]
  args.push('--env', LOCAL_ENV, '--ip', '127.0.0.1', '--port', String(opts.port))
  args.push('--inspector-port', String(opts.inspectorPort), '--inspector-ip', '127.0.0.1')
  args.push('--show-interactive-dev-session=false', '--persist-to', opts.persistTo)
  if (opts.origin) {
    const origin = new URL(opts.origin)
    args.push('--local-upstream', origin.host, '--upstream-protocol', origin.protocol.slice(0, -1))
  }
  for (const [k, v] of Object.entries(opts.vars)) args.push('--var', `${k}:${v}`)
  if (opts.envFile) args.push('--env-file', opts.envFile)
  return args
}

/**
 * Off unless the environment turns them on: wrangler dev's local observability (a collector that
 * stores every invocation's trace, each store request a span, in a SQLite Durable Object of its
 * own) and its local explorer. In a profile of registration through npm start the collector was
 * a large part of workerd's CPU; the stack's own logs and metrics do not use it.
 */
export const WRANGLER_DEFAULTS: Record<string, string> = {
  X_LOCAL_OBSERVABILITY: 'false',
  X_LOCAL_EXPLORER: 'false',
}

export const WRANGLER_ENV: Record<string, string> = {
  // The Worker's secrets come from --env-file alone, not from this process's environment.
  CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV: 'true',
  CLOUDFLARE_INCLUDE_PROCESS_ENV: 'false',
  WRANGLER_SEND_METRICS: 'false',
  WRANGLER_SEND_ERROR_REPORTS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  WRANGLER_HIDE_BANNER: 'true',
  FORCE_COLOR: '0',
  NO_COLOR: '1',
}

/**
 * wrangler dev's environment: the defaults above under `env`, WRANGLER_ENV over it, and for a
 * stand-in `command` (tests) the port to serve on and the instance label to answer.
 */
export function wranglerEnv(
  env: NodeJS.ProcessEnv,
  port: number,
  instance?: string
): NodeJS.ProcessEnv {
  const standIn = {
    EDGEPLANE_WORKER_PORT: String(port),
    ...(instance === undefined ? {} : { EDGEPLANE_WORKER_INSTANCE: instance }),
  }
  return { ...WRANGLER_DEFAULTS, ...env, ...WRANGLER_ENV, ...standIn }
}

/** wrangler dev keeps running (watching for edits) after a failed build; this spots it. */
const BUILD_FAILED = /Build failed with \d+ error/
/** What wrangler (4.x) logs when workerd exits under it: "The Workers runtime crashed ...". */
export const RUNTIME_CRASHED = /Workers runtime crashed unexpectedly/

/** Up to 1 MiB of the file from `offset`, and the offset after it. */
function readFrom(path: string, offset: number): { text: string; next: number } {
  const fd = openSync(path, 'r')
  try {
    const size = fstatSync(fd).size
    if (size <= offset) return { text: '', next: offset }
    const buf = Buffer.alloc(Math.min(size - offset, 1024 * 1024))
    const n = readSync(fd, buf, 0, buf.length, offset)
    return { text: buf.subarray(0, n).toString('utf8'), next: offset + n }
  } finally {
    closeSync(fd)
  }
}

/** Reads a log file on from `start` in steps, returning each time the complete lines added. */
function lineReader(path: string, start: number): () => string {
  let offset = start
  let partial = ''
  return () => {
    const { text, next } = readFrom(path, offset)
    offset = next
    const all = partial + text
    const end = all.lastIndexOf('\n') + 1
    partial = all.slice(end)
    return all.slice(0, end)
  }
}

export function startWrangler(opts: WranglerOptions): WranglerProcess {
  const fd = openSync(opts.logFile, 'a')
  writeSync(
    fd,
    `\n--- wrangler dev starting at ${new Date().toISOString()} on port ${opts.port} ---\n`
  )
  // Where this process's lines begin, taken before it runs: taken after spawn(), a parent
  // descheduled for a moment on a busy machine could find the child's first lines (a failed
  // build) already written, and never see them.
  const logStart = fstatSync(fd).size
  const argv = opts.command ?? [wranglerBin(), ...wranglerArgs(opts)]
  const child = spawn(process.execPath, argv, {
    cwd: opts.cwd,
    env: {
      ...wranglerEnv(process.env, opts.port, opts.vars.INSTANCE_ID),
      [STACK_MARK]: opts.persistTo,
    },
    stdio: ['ignore', fd, fd],
    detached: true,
  })
  closeSync(fd)
  const pid = child.pid
  if (pid === undefined) throw new Error('could not start wrangler dev')
  let reason: string | undefined
  const exited = new Promise<string>((resolve) => {
    child.once('error', (e) => {
      reason ??= `wrangler dev failed to run: ${e.message}`
      resolve(reason)
    })
    child.once('exit', (code, signal) => {
      reason ??= signal
        ? `wrangler dev was killed by ${signal}`
        : `wrangler dev exited with code ${code}`
      resolve(reason)
    })
  })
  let stopping: Promise<void> | undefined
  const stop = (graceMs = 8000) => {
    stopping ??= (async () => {
      await stopGroup(pid, graceMs)
      await Promise.race([exited, new Promise((r) => setTimeout(r, 1000))])
    })()
    return stopping
  }
  const startupProblem = () =>
    BUILD_FAILED.test(readFrom(opts.logFile, logStart).text)
      ? 'wrangler dev could not build the Worker'
      : undefined
  const newLines = lineReader(opts.logFile, logStart)
  const runtimeCrashed = () => RUNTIME_CRASHED.test(newLines())
  return { pid, exitReason: () => reason, startupProblem, runtimeCrashed, exited, stop }
}
