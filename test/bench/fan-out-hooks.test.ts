/**
 * driveHook sends the keys a hook deferred again in later calls of the same round (they use no
 * round), and sends failed keys again in another round.
 */
import { describe, expect, it } from 'vitest'
import { driveHook } from '../../bench/fan-out-hooks.ts'
import type { HubClient } from '../../bench/hub-client.ts'

/** A hook running at most `perCall` keys per call; `flaky` fails once; `stuck` is always deferred. */
function fakeHub(perCall: number, flaky?: string, stuck?: string) {
  const calls: string[][] = []
  let failed = false
  const hub: HubClient = {
    baseUrl: 'http://hub',
    token: 't',
    async call(_method, _path, opts) {
      const keys = (opts?.body as { keys?: string[] } | undefined)?.keys ?? []
      calls.push(keys)
      const run = keys.filter((k) => k !== stuck).slice(0, perCall)
      const deferred = keys.filter((k) => !run.includes(k))
      const results = run.map((key) => {
        const fail = key === flaky && !failed
        if (fail) failed = true
        return { key, ok: !fail, outcome: fail ? 'boom' : 'done' }
      })
      return { step: 'translate', results, deferred }
    },
  }
  return { hub, calls }
}

describe('driveHook', () => {
  it('sends deferred keys again within the round until every key ran', async () => {
    const { hub, calls } = fakeHub(3, 'k4')
    const keys = Array.from({ length: 10 }, (_, i) => `k${i}`)
    const run = await driveHook(hub, 'translate', keys, { batch: 500, calls: 1 })
    expect(calls[0]).toEqual(keys)
    expect(calls[1]).toEqual(keys.slice(3))
    expect(run).toMatchObject({ keys: 10, rounds: 2, retried: 1 })
    expect(run.deferred).toBe(7 + 4 + 1)
    expect(calls.at(-1)).toEqual(['k4'])
  })

  it('gives up on a key deferred more than maxDeferrals times, and says which', async () => {
    const { hub, calls } = fakeHub(5, undefined, 'stuck')
    const run = await driveHook(hub, 'summarize', ['a', 'stuck', 'b'], {
      batch: 1,
      calls: 1,
      maxDeferrals: 3,
    })
    expect(run.abandoned).toEqual(['stuck'])
    expect(run.deferred).toBe(4)
    // sent once, then again after each of its first three deferrals
    expect(calls.filter((c) => c.includes('stuck'))).toHaveLength(4)
  })
})
