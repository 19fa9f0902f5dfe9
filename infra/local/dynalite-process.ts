/**
 * Runs `npm start`'s dynalite in a supervised child process (dynalite-main.ts) instead of in the
 * `npm start` process. dynalite throws, uncaught, on errors it does not answer — a request body
 * cut mid-stream in its own listener, a LevelDB failure (a full disk: `LEVEL_IO_ERROR … No space
 * left on device`) — and an uncaught error ends whatever process it runs in. In a child it ends
 * only the store: the child is started again at once on the same port (so the Worker's endpoint
 * stays right), a fresh one reopening the database, which is also how LevelDB gets past a write
 * error it otherwise keeps failing every later write with. Clients see a dropped connection or a
 * refused one for the moment of the restart; the store's client retries those and the hub answers
 * what remains as 503 with `retryAfterSeconds` (lib/store/unavailable.ts). Each failure is logged
 * with dynalite's error; restarts back off from 100 ms to 2 s and never give up while the stack
 * runs. A full disk does not end the store (store-full.ts: reads go on, writes are refused until
 * there is room, then it exits 75 to be reopened, logged as such). The first start must succeed:
 * its failure (a folder it cannot write, store-folder.ts) is the error of `startDynaliteProcess`.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Logger } from '../../lib/log.ts'
import type { DynaliteServer } from './dynalite-server.ts'
import { RECOVER_EXIT } from './store-full.ts'
import { type StoreKey, storeKeyEnv } from './store-key.ts'

const MAIN = join(dirname(fileURLToPath(import.meta.url)), 'dynalite-main.ts')
const FIRST_RESTART_MS = 100
const MAX_RESTART_MS = 2_000
/** How long a stopping dynalite may take to close its database before it is killed. */
const STOP_GRACE_MS = 10_000

export type DynaliteProcessOptions = {
  /** LevelDB folder; in memory when absent. */
  path?: string
  key?: StoreKey
  log: Logger
}

export type DynaliteProcess = DynaliteServer & {
  /** How many times the store was started again after it failed. */
  restarts(): number
  /** The running child's pid, undefined between a failure and its restart. */
  pid(): number | undefined
}

type Run = { child: ChildProcess; port: Promise<number>; exited: Promise<string> }

/** What dynalite said last on stderr: its fatal error line, or its last line of output. */
function causeOf(stderr: string): string {
  const lines = stderr.trim().split('\n')
  for (const line of lines.reverse()) {
    try {
      const parsed = JSON.parse(line) as { fatal?: { code?: string; message?: string } }
      if (parsed.fatal) return [parsed.fatal.code, parsed.fatal.message].filter((s) => s).join(': ')
    } catch {
      // not a fatal line
    }
  }
  return lines[0] ?? ''
}

function launch(opts: DynaliteProcessOptions, port: number): Run {
  const child = spawn(process.execPath, ['--experimental-strip-types', '--no-warnings', MAIN], {
    env: {
      ...process.env,
      EDGEPLANE_DYNALITE_PORT: String(port),
      ...(opts.path ? { EDGEPLANE_DYNALITE_PATH: opts.path } : {}),
      ...(opts.key ? storeKeyEnv(opts.key) : {}),
    },
    stdio: ['pipe', 'pipe', 'pipe'],
    // Its own process group: a Ctrl-C reaches npm start, which closes the store last.
    detached: true,
  })
  let stderr = ''
  child.stderr?.on('data', (d: Buffer) => {
    const text = d.toString()
    stderr = (stderr + text).slice(-8_192)
    const full = /\{"full":\{"cause":(".*?")\}\}/.exec(text)
    if (full)
      opts.log.warn('the local store is full: writes answer 503 until there is room, reads go on', {
        cause: JSON.parse(full[1] ?? '""'),
        path: opts.path,
      })
  })
  const exited = new Promise<string>((resolve) => {
    child.once('error', (e) => resolve(`dynalite failed to run: ${e.message}`))
    child.once('exit', (code, signal) => {
      const how = signal ? `killed by ${signal}` : `exit code ${code}`
      const cause = causeOf(stderr)
      resolve(cause ? `${cause} (${how})` : how)
    })
  })
  const listening = new Promise<number>((resolve, reject) => {
    let out = ''
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString()
      const nl = out.indexOf('\n')
      if (nl >= 0) resolve((JSON.parse(out.slice(0, nl)) as { port: number }).port)
    })
    exited.then((why) => reject(new Error(`the local store did not start: ${why}`)))
  })
  return { child, port: listening, exited }
}

export async function startDynaliteProcess(opts: DynaliteProcessOptions): Promise<DynaliteProcess> {
  let run = launch(opts, 0)
  const port = await run.port
  let restarts = 0
  let failures = 0
  let stopping = false
  let timer: ReturnType<typeof setTimeout> | undefined

  const watch = (r: Run) => {
    void r.exited.then((why) => {
      if (stopping) return
      if (r.child.exitCode === RECOVER_EXIT) {
        opts.log.info('the local store has room again; reopening it', { path: opts.path })
        failures = 0
      }
      failures += 1
      const delay = Math.min(MAX_RESTART_MS, FIRST_RESTART_MS * 2 ** (failures - 1))
      if (r.child.exitCode !== RECOVER_EXIT)
        opts.log.warn('the local store failed; starting it again', {
          why,
          path: opts.path ?? '(memory)',
          retryInMs: delay,
        })
      timer = setTimeout(() => {
        timer = undefined
        if (stopping) return
        restarts += 1
        run = launch(opts, port)
        run.port.then(
          () => {
            failures = 0
            opts.log.info('the local store is serving again', { port, restarts })
          },
          () => undefined
        )
        watch(run)
      }, delay)
    })
  }
  watch(run)

  let closing: Promise<void> | undefined
  const close = async () => {
    stopping = true
    if (timer) clearTimeout(timer)
    const { child, exited } = run
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      const kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS)
      await exited
      clearTimeout(kill)
    }
  }
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    restarts: () => restarts,
    pid: () => (run.child.exitCode === null ? run.child.pid : undefined),
    close: () => {
      closing ??= close()
      return closing
    },
  }
}
