/**
 * Emulates the Worker's cron locally. `wrangler dev` runs `scheduled()` only when
 * `/cdn-cgi/handler/scheduled` is requested (served by wrangler itself, whether it bundled the
 * sources or runs a built Worker with --no-bundle, where `/__scheduled` would reach the Worker's
 * own routes), so this ticker requests it once a period (the cron in wrangler.toml is every minute): the sweeps, the resumption of interrupted terminations and the
 * resync then run locally as they would when deployed — each run one invocation within its
 * subrequest budget (strict locally), every part continuing where the previous run stopped
 * (functions/maintenance.ts). Failures are logged, never fatal; a run still going when the next
 * tick comes is not waited for (the parts' cursors are safe to share).
 */
import type { Logger } from '../../lib/log.ts'
import { createRemote } from '../../lib/remote/remote-client.ts'

/** wrangler dev's route that runs the Worker's `scheduled()`. */
export const SCHEDULED_PATH = '/cdn-cgi/handler/scheduled'

/** Must match `[triggers] crons` in wrangler.toml. */
export const LOCAL_CRON = '*/1 * * * *'

export type CronTicker = { stop(): Promise<void> }

export type CronTickerOptions = { hubUrl: string; periodMs: number; log: Logger; ca?: string }

export function startCronTicker(opts: CronTickerOptions): CronTicker {
  const hub = createRemote({
    baseUrl: opts.hubUrl,
    timeoutMs: 30_000,
    ...(opts.ca ? { ca: opts.ca } : {}),
  })
  let running: Promise<void> = Promise.resolve()
  const tick = async () => {
    try {
      const res = await hub.send(`${SCHEDULED_PATH}?cron=${encodeURIComponent(LOCAL_CRON)}`)
      await res.body?.cancel()
      if (!res.ok) opts.log.warn('scheduled run answered an error', { status: res.status })
    } catch (e) {
      opts.log.warn('scheduled run failed', { error: e })
    }
  }
  const timer = setInterval(() => {
    running = tick()
  }, opts.periodMs)
  timer.unref()
  return {
    stop: async () => {
      clearInterval(timer)
      await running
    },
  }
}
