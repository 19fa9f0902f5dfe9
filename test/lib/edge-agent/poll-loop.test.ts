import { describe, expect, it } from 'vitest'
import { runPollLoop } from '../../../lib/edge-agent/poll-loop.ts'
import { type PollResult, pollResult } from '../../../lib/edge-agent/poll-result.ts'
import { createLogger } from '../../../lib/log.ts'

const ok = pollResult({ unchanged: 1, durationMs: 3 })

describe('runPollLoop', () => {
  it('survives a throwing poll, logs each outcome as JSON and stops on abort', async () => {
    const lines: string[] = []
    const log = createLogger({ level: 'debug', sink: (l) => lines.push(l) })
    const plan: (() => Promise<PollResult>)[] = [
      async () => {
        throw new Error('disk full')
      },
      async () => ok,
      async () => ({ ...ok, outcome: 'applied', created: 2 }),
    ]
    const stop = new AbortController()
    const delays: number[] = []
    await runPollLoop({
      poll: () => (plan.shift() ?? (async () => ok))(),
      intervalMs: 100,
      random: () => 0.5,
      sleep: async (ms) => {
        delays.push(ms)
        if (delays.length === 3) stop.abort()
      },
      signal: stop.signal,
      log,
    })
    expect(delays).toEqual([75, 100, 100])
    const parsed = lines.map((l) => JSON.parse(l))
    expect(parsed.map((l) => [l.level, l.msg, l.outcome])).toEqual([
      ['warn', 'poll failed', 'failed'],
      ['debug', 'poll', 'unchanged'],
      ['info', 'poll', 'applied'],
    ])
    expect(parsed[0]).toMatchObject({ error: 'disk full', nextPollMs: 75 })
    expect(parsed[2]).toMatchObject({ created: 2, durationMs: 3 })
  })

  it('waits at least what the center’s Retry-After asked after a failure, never less', async () => {
    const failed = pollResult({ outcome: 'center-error', ok: false, error: '429' })
    const plan = [failed, failed, ok]
    const asks = [30_000, 10, 30_000]
    const stop = new AbortController()
    const delays: number[] = []
    await runPollLoop({
      poll: async () => plan.shift() ?? ok,
      intervalMs: 100,
      random: () => 0.5,
      retryAfterMs: () => asks.shift(),
      sleep: async (ms) => {
        delays.push(ms)
        if (delays.length === 3) stop.abort()
      },
      signal: stop.signal,
      log: createLogger({ level: 'error' }),
    })
    // Asked 30 s; asked 10 ms, less than the backoff (150); a success ignores what was asked.
    expect(delays).toEqual([30_000, 150, 100])
  })
})
