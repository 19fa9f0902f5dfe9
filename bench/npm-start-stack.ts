/**
 * `npm start`'s stack as its users run it, for the benchmark's rows through the path users take:
 * the start program (infra/local/start.ts) in a fresh data folder on a free port, with no simulated
 * edges (the mailboxes are the measure), its Worker logging at info so every reconcile run is in
 * wrangler.log. Resolves once the ready line is printed, with a client of the hub that trusts its
 * certificate and carries the admin token (lib/remote/). `stop()` sends SIGTERM, waits for the
 * exit and removes the data folder.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseReadyLine } from '../infra/local/cli-args.ts'
import { pickFreePort } from '../infra/local/ports.ts'
import { readStackInfo, type StackInfo } from '../infra/local/stack-info.ts'
import { createRemote, type Remote } from '../lib/remote/remote-client.ts'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const READY_TIMEOUT_MS = 180_000

export type NpmStartStack = {
  hub: Remote
  /** The admin token (the dashboard's login). */
  token: string
  /** The same without a time limit per request, for watches. */
  watcher: Remote
  info: StackInfo
  /** npm start's process id: the root of the stack's process tree (process-cpu.ts). */
  pid: number
  /** The Worker's log (wrangler.log): its reconcile runs are counted from it. */
  wranglerLog: string
  /** Stops the stack (SIGTERM) and removes its data folder. */
  stop(): Promise<void>
}

/** Starts the stack; `env` adds to its environment. */
export async function startNpmStack(env: Record<string, string> = {}): Promise<NpmStartStack> {
  const dataDir = await mkdtemp(join(tmpdir(), 'edgeplane-bench-'))
  const port = await pickFreePort()
  const child: ChildProcess = spawn(
    process.execPath,
    ['--experimental-strip-types', 'infra/local/start.ts'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        EDGEPLANE_DATA: dataDir,
        EDGEPLANE_PORT: String(port),
        EDGEPLANE_EDGES: '',
        LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    }
  )
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)))
  let stderr = ''
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-20_000)
  })
  try {
    await new Promise<void>((ready, fail) => {
      let stdout = ''
      const timer = setTimeout(
        () => fail(new Error('npm start was not ready in time')),
        READY_TIMEOUT_MS
      )
      child.stdout?.on('data', (d: Buffer) => {
        stdout += d.toString()
        if (stdout.split('\n').some((l) => parseReadyLine(l))) {
          clearTimeout(timer)
          ready()
        }
      })
      void exited.then((code) => {
        clearTimeout(timer)
        fail(new Error(`npm start exited with ${code} before it was ready:\n${stderr}`))
      })
    })
    const info = await readStackInfo(join(dataDir, 'stack.json'))
    if (!info) throw new Error(`npm start wrote no stack.json in ${dataDir}`)
    const token = (await readFile(info.adminTokenFile, 'utf8')).trim()
    const ca = await readFile(info.caFile, 'utf8')
    const hub = createRemote({ baseUrl: info.url, token, ca, timeoutMs: 120_000 })
    const watcher = createRemote({ baseUrl: info.url, token, ca })
    return {
      hub,
      token,
      watcher,
      info,
      pid: child.pid ?? 0,
      wranglerLog: info.wrangler.logFile,
      async stop() {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
        await exited
        if (process.env.BENCH_KEEP_DATA) console.error(`npm start's data kept in ${dataDir}`)
        else await rm(dataDir, { recursive: true, force: true })
      },
    }
  } catch (e) {
    child.kill('SIGTERM')
    await exited
    await rm(dataDir, { recursive: true, force: true })
    throw e
  }
}
