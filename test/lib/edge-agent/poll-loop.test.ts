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

  it('waits what the center’s Retry-After asked after a failure, at least a first backoff', async () => {
    const failed = pollResult({ outcome: 'center-error', ok: false, error: '429' })
    const plan = [failed, failed, failed, failed, ok]
    const asks = [30_000, undefined, undefined, 10, 30_000]
    const stop = new AbortController()
    const delays: number[] = []
    await runPollLoop({
      poll: async () => plan.shift() ?? ok,
      intervalMs: 100,
      random: () => 0.5,
      retryAfterMs: () => asks.shift(),
      sleep: async (ms) => {
        delays.push(ms)
        if (delays.length === 5) stop.abort()
      },
      signal: stop.signal,
      log: createLogger({ level: 'error' }),
    })
    // Asked 30 s; no answer twice (the backoff of a 2nd and a 3rd failure: 150, 300); asked 10 ms
    // on the 4th: a first failure's backoff (75), not the 4th's (600); a success ignores an ask.
    expect(delays).toEqual([30_000, 150, 300, 75, 100])
  })
})
