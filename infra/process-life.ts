/**
 * What the long-running Node programs under infra/ (relay, edge agent, simulated edge) share about
 * their own life: the log level from LOG_LEVEL (debug | info | warn | error, else info), and
 * `untilStopped`, which resolves with the reason once SIGTERM or SIGINT arrives or — with a
 * `parentPid` (a supervisor such as `npm start`) — once that process is no longer this one's
 * parent, so a child never outlives a supervisor that was killed outright.
 */
import type { Logger, LogLevel } from '../lib/log.ts'

const LEVELS: LogLevel[] = ['debug', 'info', 'warn', 'error']

export function logLevelFrom(env: Record<string, string | undefined>): LogLevel {
  return LEVELS.find((l) => l === env.LOG_LEVEL) ?? 'info'
}

export function untilStopped(opts: { parentPid?: number; log: Logger }): Promise<string> {
  return new Promise<string>((resolve) => {
    let timer: ReturnType<typeof setInterval> | undefined
    const done = (why: string) => {
      clearInterval(timer)
      resolve(why)
    }
    process.once('SIGTERM', () => done('SIGTERM'))
    process.once('SIGINT', () => done('SIGINT'))
    const parent = opts.parentPid
    if (parent === undefined) return
    timer = setInterval(() => {
      if (process.ppid === parent) return
      opts.log.warn('parent process is gone', { parentPid: parent })
      done('parent gone')
    }, 1000)
  })
}
