/**
 * The edge phase's idle figures, over mailboxes that hold a manifest and nothing running against
 * them. Cost: DynamoDB requests per unchanged poll (304), counted by request-costs.ts `measure`
 * after one warm-up poll per mailbox (token and mailbox-space caches warm), and optionally again
 * once the 10 s token cache has expired (one poll per mailbox; the mailbox-space cache lasts ten
 * minutes, longer than any poll interval, so it stays warm). Throughput: the same
 * polls, `concurrency` at a time, against the real endpoint and against a bare hono endpoint
 * answering 304 (edge-bare.ts) over the same HTTP stack, after one uncounted warm-up run each
 * (the JIT), alternated over a few rounds so that noise from other work on the machine hits both
 * sides alike.
 */
import { TOKEN_CACHE_MS } from '../lib/auth/tokens.ts'
import { startBareServer } from './edge-bare.ts'
import { type PollTarget, pollUnchanged } from './edge-poll.ts'
import type { EdgeDeps, IdleResults, PollRate } from './edge-types.ts'
import { type LoadResult, runLoad } from './load.ts'
import { measure } from './request-costs.ts'
import { ratio } from './stats.ts'

export const IDLE_ROUNDS = 3

export type IdleOptions = {
  samples: number
  cold: boolean
  polls: number
  concurrency: number
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Sums rounds of one side: ops/s over the summed time; latencies as the median round's. */
export function combineRounds(rounds: readonly LoadResult[]): PollRate {
  const ops = rounds.reduce((s, r) => s + r.ops, 0)
  const elapsedMs = rounds.reduce((s, r) => s + r.elapsedMs, 0)
  const byRate = [...rounds].sort((a, b) => a.opsPerSec - b.opsPerSec)
  const mid = byRate[Math.floor(byRate.length / 2)]
  return {
    ops,
    elapsedMs,
    opsPerSec: elapsedMs > 0 ? (ops * 1000) / elapsedMs : Number.NaN,
    p50Ms: mid?.latencyMs.p50 ?? Number.NaN,
    p99Ms: mid?.latencyMs.p99 ?? Number.NaN,
  }
}

export async function measureIdle(
  deps: EdgeDeps,
  targets: readonly PollTarget[],
  opts: IdleOptions
): Promise<IdleResults> {
  const { progress } = deps
  const baseUrl = deps.hub.baseUrl
  const pick = (i: number) => targets[i % targets.length]!
  const samples = Math.min(opts.samples, targets.length)
  for (const t of targets) await pollUnchanged(baseUrl, t)
  const warm = await measure(deps, 'desired, unchanged (304), caches warm', opts.samples, (i) =>
    pollUnchanged(baseUrl, pick(i))
  )
  let cold: IdleResults['cold'] = null
  if (opts.cold) {
    progress(`edge idle: waiting ${(TOKEN_CACHE_MS + 500) / 1000} s for the caches to expire`)
    await sleep(TOKEN_CACHE_MS + 500)
    cold = await measure(deps, 'desired, unchanged (304), caches cold', samples, (i) =>
      pollUnchanged(baseUrl, pick(i))
    )
  }
  const bare = await startBareServer()
  const real: LoadResult[] = []
  const base: LoadResult[] = []
  try {
    const run = (url: string) =>
      runLoad({ count: opts.polls, concurrency: opts.concurrency }, (i) =>
        pollUnchanged(url, pick(i))
      )
    for (const t of targets) await pollUnchanged(baseUrl, t)
    progress(`edge idle: warming up both endpoints (${opts.polls} polls each, not counted)`)
    await run(bare.url)
    await run(baseUrl)
    for (let r = 0; r < IDLE_ROUNDS; r++) {
      progress(`edge idle: ${opts.polls} polls x2 (bare, real), round ${r + 1}/${IDLE_ROUNDS}`)
      base.push(await run(bare.url))
      real.push(await run(baseUrl))
    }
  } finally {
    await bare.close()
  }
  return {
    mailboxes: targets.length,
    warm,
    cold,
    throughput: {
      rounds: IDLE_ROUNDS,
      concurrency: opts.concurrency,
      real: combineRounds(real),
      bare: combineRounds(base),
      roundRatios: real.map((r, i) => ratio(r.opsPerSec, base[i]?.opsPerSec ?? Number.NaN)),
    },
  }
}
