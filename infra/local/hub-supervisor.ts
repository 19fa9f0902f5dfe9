/**
 * Keeps the hub Worker serving after it started (hub-worker.ts): when wrangler dev exits, or when
 * it reports that the Workers runtime (workerd) crashed and /healthz does not answer again within
 * `recoverMs` (wrangler restarts workerd itself, but a restarted proxy runtime may accept
 * connections and answer nothing), wrangler's whole process group is stopped and a new wrangler
 * is started on the same ports, then waited for until healthy. At most `maxRestarts` restarts in
 * a row (the count starts again after `healthyMs` of service); past that, or when a restarted
 * wrangler does not come up, `failed` resolves with the reason and the tail of wrangler's log, and
 * `npm start` ends the stack with that message. A process group stopped with SIGSTOP (a debugger,
 * a test freezing the center) is not restarted: only an exit or a reported crash counts.
 */
import type { Logger } from '../../lib/log.ts'
import { withLogTail } from './log-tail.ts'
import type { WranglerProcess } from './wrangler-process.ts'

export type HubSupervisorOptions = {
  first: WranglerProcess
  /** Starts a new wrangler on the same ports and waits until healthy; throws if it is not. */
  respawn(gaveUp: () => string | undefined): Promise<WranglerProcess>
  /** Whether the running wrangler answers /healthz. */
  probe(): Promise<boolean>
  logFile: string
  log: Logger
  /** Restarts in a row before giving up (default 3; 0 ends the stack at the first failure). */
  maxRestarts?: number
  /** Service this long resets the restart count (default 5 minutes). */
  healthyMs?: number
  /** After a reported runtime crash, how long the hub may take to serve again (default 10 s). */
  recoverMs?: number
  /** How often the log is checked for runtime crashes (default 1 s). */
  checkMs?: number
  /** Called with each new wrangler once it is healthy. */
  onRestart?(w: WranglerProcess, restarts: number): void
}

export type HubSupervisor = {
  current(): WranglerProcess
  restarts(): number
  /** Resolves with a readable reason (log tail included) once the supervisor gives up. */
  failed: Promise<string>
  stop(): Promise<void>
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export function superviseHub(opts: HubSupervisorOptions): HubSupervisor {
  const maxRestarts = opts.maxRestarts ?? 3
  const healthyMs = opts.healthyMs ?? 5 * 60_000
  const recoverMs = opts.recoverMs ?? 10_000
  let current = opts.first
  let since = Date.now()
  let inARow = 0
  let total = 0
  let stopping = false
  let busy: Promise<void> | undefined
  let over = false
  let settle: (reason: string) => void = () => undefined
  const failed = new Promise<string>((resolve) => {
    settle = resolve
  })
  const giveUp = (reason: string) => {
    over = true
    settle(reason)
  }
  const stoppedReason = () => (stopping ? 'the stack is stopping' : undefined)

  const restart = async (why: string) => {
    inARow = Date.now() - since >= healthyMs ? 1 : inARow + 1
    if (inARow > maxRestarts) {
      const tried = maxRestarts
        ? `; gave up after ${maxRestarts} restarts in a row`
        : '; not restarted (restarts are off)'
      giveUp(await withLogTail(`${why}${tried}`, opts.logFile))
      return
    }
    opts.log.warn('hub down; restarting wrangler dev', { why, restart: inARow, maxRestarts })
    await current.stop()
    if (stopping) return
    try {
      current = await opts.respawn(stoppedReason)
    } catch (e) {
      if (!stopping) giveUp(`${why}; restarting it failed: ${(e as Error).message}`)
      return
    }
    if (stopping) return void (await current.stop())
    since = Date.now()
    total += 1
    watchExit(current)
    opts.log.info('hub serving again', { pid: current.pid, restarts: total })
    opts.onRestart?.(current, total)
  }

  const trigger = (why: string) => {
    if (stopping || over || busy) return
    busy = restart(why).finally(() => {
      busy = undefined
    })
  }

  const watchExit = (w: WranglerProcess) => {
    void w.exited.then((reason) => {
      if (w === current) trigger(reason)
    })
  }

  /** After a reported workerd crash: does the hub serve again within recoverMs? */
  const recovered = async (): Promise<boolean> => {
    const deadline = Date.now() + recoverMs
    while (!stopping && Date.now() < deadline) {
      if (await opts.probe()) return true
      await sleep(500)
    }
    return stopping
  }

  let checking = false
  const timer = setInterval(async () => {
    if (checking || busy || stopping || over || !current.runtimeCrashed()) return
    checking = true
    const crashed = current
    try {
      if (await recovered()) {
        if (!stopping) opts.log.warn('workerd crashed; wrangler restarted it, the hub serves')
      } else if (crashed === current)
        trigger(`workerd crashed and the hub did not serve again within ${recoverMs} ms`)
    } finally {
      checking = false
    }
  }, opts.checkMs ?? 1000)

  watchExit(current)
  return {
    current: () => current,
    restarts: () => total,
    failed,
    async stop() {
      stopping = true
      clearInterval(timer)
      await busy
      await current.stop()
    },
  }
}
