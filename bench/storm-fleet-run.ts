/**
 * The storm fleet's run (the program is storm-pollers.ts): one storm agent (storm-agent.ts) per
 * target, each a loop of passes separated by the real agent's waits, one request in flight per
 * agent (a pass's poll and heartbeat follow one another). The agents start spread over one
 * interval, and each one's last heartbeat is placed at random within the heartbeat period before
 * the start, as in a fleet that has been running. Counts go per second (storm-counts.ts). The run
 * tells `warm` once every agent had a heartbeat accepted (or after `warmCapMs`, with how many
 * had). Once the parent says when it stopped the center (`stopped`), each agent's recovery is the
 * end of its first successful pass started at or after that time (a request sent after the stop
 * can only be answered once the center is back); the run ends when every agent has recovered, or
 * `capMs` after the stop, or when `abort` fires. Each agent's longest time between two accepted
 * heartbeats is kept too: past the staleness threshold, the center saw that edge go Stale.
 */
import { defaultSleep } from '../lib/edge-agent/poll-loop.ts'
import { linkedSignal } from '../lib/linked-signal.ts'
import { desiredPath, type PollTarget } from './edge-poll.ts'
import { createStormAgent } from './storm-agent.ts'
import { createSecondCounts, type SecondRow } from './storm-counts.ts'

export type StormFleetInput = {
  baseUrl: string
  targets: PollTarget[]
  intervalMs: number
  heartbeatMs: number
  /** How long after the stop the run waits for every agent to recover. */
  capMs: number
  /** How long the warm-up may take before `warm` is told anyway. */
  warmCapMs: number
  /** Each request's limit (the center client's: 30 s). */
  timeoutMs?: number
}

export type StormFleetRaw = {
  agents: number
  startedAt: number
  /** When every agent had a heartbeat accepted (or the warm-up cap), epoch ms. */
  warmAt: number
  /** Agents with a heartbeat accepted by then. */
  warmed: number
  seconds: SecondRow[]
  /** Per agent, its recovery (epoch ms), null when it did not recover before the cap. */
  recoveredAt: (number | null)[]
  /** Per agent, the longest time between two accepted heartbeats, ms. */
  longestBeatGapMs: number[]
}

export type StormControl = {
  /** Resolves with the time the center was stopped (epoch ms). */
  stopped: Promise<number>
  onWarm(at: number, warmed: number): void
  /** Told every PROGRESS_MS after the stop: how many agents have recovered. */
  onProgress?(recovered: number): void
  abort: AbortSignal
}

const HEARTBEAT = { kind: 'Report', heartbeat: true }
export const PROGRESS_MS = 30_000

export async function runStormFleet(i: StormFleetInput, c: StormControl): Promise<StormFleetRaw> {
  const n = i.targets.length
  const counts = createSecondCounts()
  const startedAt = Date.now()
  const ended = new AbortController()
  const end = () => ended.abort()
  c.abort.addEventListener('abort', end)
  const timeoutMs = i.timeoutMs ?? 30_000
  const recoveredAt: (number | null)[] = new Array(n).fill(null)
  const longestBeatGapMs: number[] = new Array(n).fill(0)
  let recovered = 0
  let stopAt: number | undefined
  let cap: ReturnType<typeof setTimeout> | undefined
  let ticks: ReturnType<typeof setInterval> | undefined
  void c.stopped.then((at) => {
    stopAt = at
    cap = setTimeout(end, Math.max(0, at + i.capMs - Date.now()))
    ticks = setInterval(() => c.onProgress?.(recovered), PROGRESS_MS)
  })
  const beaten = new Set<number>()
  let warmAt = 0
  const warm = () => {
    if (warmAt) return
    warmAt = Date.now()
    c.onWarm(warmAt, beaten.size)
  }
  const warmCap = setTimeout(warm, i.warmCapMs)

  const loop = async (a: number) => {
    const t = i.targets[a]!
    const auth = { authorization: `Bearer ${t.token}` }
    const send = async (kind: 'poll' | 'beat') => {
      const deadline = linkedSignal([ended.signal], timeoutMs)
      const { signal } = deadline
      try {
        return await (kind === 'poll'
          ? fetch(`${i.baseUrl}${desiredPath(t.mailbox)}`, {
              headers: { ...auth, 'if-none-match': t.etag },
              signal,
            })
          : fetch(`${i.baseUrl}/edge/v1/mailboxes/${encodeURIComponent(t.mailbox)}/reports`, {
              method: 'POST',
              headers: { ...auth, 'content-type': 'application/json' },
              body: JSON.stringify(HEARTBEAT),
              signal,
            }))
      } finally {
        deadline.release()
      }
    }
    const agent = createStormAgent(
      {
        send,
        now: Date.now,
        random: Math.random,
        intervalMs: i.intervalMs,
        heartbeatMs: i.heartbeatMs,
        count: (at, key) => {
          if (!ended.signal.aborted) counts.count(at, key)
        },
      },
      startedAt - Math.random() * i.heartbeatMs
    )
    await defaultSleep(Math.random() * i.intervalMs, ended.signal)
    while (!ended.signal.aborted) {
      const passAt = Date.now()
      const beatBefore = agent.lastBeatMs()
      const r = await agent.pass()
      if (ended.signal.aborted) break
      if (r.beat)
        longestBeatGapMs[a] = Math.max(longestBeatGapMs[a]!, agent.lastBeatMs() - beatBefore)
      if (r.beat && !beaten.has(a)) {
        beaten.add(a)
        if (beaten.size === n) warm()
      }
      if (r.ok && stopAt !== undefined && passAt >= stopAt && recoveredAt[a] === null) {
        recoveredAt[a] = Date.now()
        if (++recovered === n) end()
      }
      await defaultSleep(r.delayMs, ended.signal)
    }
  }
  await Promise.all(i.targets.map((_, a) => loop(a)))
  clearTimeout(warmCap)
  if (cap) clearTimeout(cap)
  if (ticks) clearInterval(ticks)
  c.abort.removeEventListener('abort', end)
  return {
    agents: n,
    startedAt,
    warmAt,
    warmed: beaten.size,
    seconds: counts.rows(),
    recoveredAt,
    longestBeatGapMs,
  }
}
