/**
 * The e2e harness: starts the real local stack (`npm start`, i.e. `node --experimental-strip-types
 * infra/local/start.ts`) as a child process on a free EDGEPLANE_PORT and a temporary
 * EDGEPLANE_DATA, waits for its ready line, and gives tests what stack-client.ts describes
 * (kubectl with a private KUBECACHEDIR, a client-node KubeConfig, authenticated requests, the
 * stack's stack.json). `stop()` signals it (SIGTERM by default) and waits for the exit code;
 * `start()` starts it again on the same data folder and port; `destroy()` also removes the
 * temporary folders. The stack runs the watch relay unless started with `{ relay: false }`
 * (EDGEPLANE_RELAY=off) and no simulated edges unless given `{ edges: '...' }` (EDGEPLANE_EDGES);
 * `killRelay()` kills the relay and `relayRestarted(oldPid)` waits until the stack has started a
 * new one (it restarts a dead relay by itself, after a backoff of 1-30 s).
 *
 * A file that needs a stack of its own (it stops, restarts or kills parts of it, or needs exact
 * global contents) uses this; the others use the run's shared stack (shared-stack.ts).
 *
 *   const stack = await startStack()
 *   afterAll(() => stack.destroy())
 *   const r = await stack.kubectl(['get', 'ns', '-o', 'json'])
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { appendFileSync, existsSync, readFileSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseReadyLine } from '../../../infra/local/cli-args.ts'
import { pickFreePort } from '../../../infra/local/ports.ts'
import { readStackInfo, type StackInfo } from '../../../infra/local/stack-info.ts'
import { type StackClient, stackClient } from './stack-client.ts'

export type { ApiInit, StackClient } from './stack-client.ts'

const READY_TIMEOUT_MS = 150_000

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..')

export type StackOptions = {
  dataDir?: string
  port?: number
  /** Run the watch relay (default true); false sets EDGEPLANE_RELAY=off. */
  relay?: boolean
  /** EDGEPLANE_EDGES (default '': no simulated edges, which most tests do not need). */
  edges?: string
  /** More environment for the start program. */
  env?: Record<string, string>
  /** A file the start program's stderr is appended to as well (read by other processes). */
  stderrFile?: string
}

export type E2eStack = StackClient & {
  /** Kills the relay (SIGKILL unless told) and returns the pid it had. */
  killRelay(signal?: NodeJS.Signals): Promise<number>
  /** Waits until stack.json names a relay pid other than `oldPid`, and returns it. */
  relayRestarted(oldPid: number, timeoutMs?: number): Promise<number>
  /** Signals the start program (SIGTERM unless told) and resolves with its exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>
  start(): Promise<void>
  destroy(): Promise<void>
}

type Run = { child: ChildProcess; exited: Promise<number | null>; stderr: string }

/**
 * The last lines of every log file the stack's own lines name (`"log": "<path>"`, e.g. an edge
 * that kept exiting), read before the test's folder is removed: what a failed start needs to be
 * understood.
 */
function logTails(stderr: string): string {
  const files = new Set([...stderr.matchAll(/"log":"([^"]+)"/g)].map((m) => m[1] ?? ''))
  let out = ''
  for (const file of files) {
    if (!file || !existsSync(file)) continue
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n').slice(-20)
    out += `\n${file} (last ${lines.length} lines):\n${lines.join('\n')}`
  }
  return out
}

function launch(
  env: Record<string, string>,
  stderrFile?: string
): { run: Run; ready: Promise<void> } {
  const child = spawn(process.execPath, ['--experimental-strip-types', 'infra/local/start.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const run: Run = {
    child,
    stderr: '',
    exited: new Promise((r) => child.once('exit', (code) => r(code))),
  }
  child.stderr?.on('data', (d: Buffer) => {
    run.stderr += d.toString()
    if (stderrFile) appendFileSync(stderrFile, d)
  })
  let stdout = ''
  const ready = new Promise<void>((resolveReady, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      stdout += d.toString()
      if (stdout.split('\n').some((l) => parseReadyLine(l))) resolveReady()
    })
    void run.exited.then((code) =>
      reject(
        new Error(
          `local stack exited with ${code} before it was ready\nstdout:\n${stdout}\nstderr:\n${run.stderr}${logTails(run.stderr)}`
        )
      )
    )
  })
  // Below the e2e hook timeout, so a stack that never gets ready is stopped, not orphaned.
  const timer = setTimeout(() => child.kill('SIGTERM'), READY_TIMEOUT_MS)
  void run.exited.then(() => clearTimeout(timer))
  void ready.then(
    () => clearTimeout(timer),
    () => undefined
  )
  return { run, ready }
}

/**
 * Runs the start program with `env` until it exits (e.g. a start that must fail), killing it after
 * `timeoutMs`; returns its exit code and output.
 */
export async function runStartProgram(
  env: Record<string, string>,
  args: string[] = [],
  timeoutMs = 60_000
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    ['--experimental-strip-types', 'infra/local/start.ts', ...args],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }
  )
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (d: Buffer) => {
    stdout += d.toString()
  })
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString()
  })
  const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs)
  const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)))
  clearTimeout(timer)
  return { code, stdout, stderr }
}

export async function startStack(opts: StackOptions = {}): Promise<E2eStack> {
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'edgeplane-e2e-')))
  const cacheDir = await mkdtemp(join(tmpdir(), 'edgeplane-kubecache-'))
  const port = opts.port ?? (await pickFreePort())
  const kubeconfig = join(dataDir, 'kubeconfig')
  let run: Run | undefined
  let last: Run | undefined
  let info: StackInfo | undefined
  let token = ''
  let ca = ''

  const start = async () => {
    const launched = launch(
      {
        EDGEPLANE_PORT: String(port),
        EDGEPLANE_DATA: dataDir,
        LOG_LEVEL: 'warn',
        ...(opts.relay === false ? { EDGEPLANE_RELAY: 'off' } : {}),
        EDGEPLANE_EDGES: opts.edges ?? '',
        ...opts.env,
      },
      opts.stderrFile
    )
    run = launched.run
    last = launched.run
    await launched.ready
    info = await readStackInfo(join(dataDir, 'stack.json'))
    if (!info) throw new Error(`no stack.json in ${dataDir}`)
    token = (await readFile(info.adminTokenFile, 'utf8')).trim()
    ca = await readFile(info.caFile, 'utf8')
  }
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (!run) return null
    const current = run
    run = undefined
    if (current.child.exitCode === null && current.child.signalCode === null)
      current.child.kill(signal)
    return current.exited
  }

  try {
    await start()
  } catch (e) {
    if (!opts.dataDir) await rm(dataDir, { recursive: true, force: true })
    await rm(cacheDir, { recursive: true, force: true })
    throw e
  }
  const client = stackClient({
    dataDir,
    port,
    url: info?.url ?? '',
    kubeconfig,
    cacheDir,
    info: () => info,
    token: () => token,
    ca: () => ca,
    output: () => last?.stderr ?? '',
  })
  return {
    ...client,
    async killRelay(signal = 'SIGKILL') {
      const pid = await client.relayPid()
      if (pid === undefined) throw new Error('the stack runs no relay')
      process.kill(pid, signal)
      return pid
    },
    async relayRestarted(oldPid, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const pid = await client.relayPid().catch(() => undefined)
        if (pid !== undefined && pid !== oldPid) return pid
        if (Date.now() > deadline) throw new Error(`relay ${oldPid} was not replaced in time`)
        await new Promise((r) => setTimeout(r, 100))
      }
    },
    stop: (signal) => stop(signal),
    start,
    destroy: async () => {
      await stop('SIGTERM')
      if (!opts.dataDir) await rm(dataDir, { recursive: true, force: true })
      await rm(cacheDir, { recursive: true, force: true })
    },
  }
}
