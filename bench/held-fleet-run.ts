/**
 * One held fleet's run (the program is held-pollers.ts): every target keeps one desired-state poll
 * held open at the center (`Prefer: wait=<holdSeconds>`, If-None-Match naming the version it
 * holds), as an idle agent in held mode does (lib/edge-agent/held-loop.ts), and posts a heartbeat
 * report once per `heartbeatMs` beside it — the held poll and the heartbeat are separate requests
 * on separate connections, as the agent's are. A hold that ends (304) opens again after a jitter
 * of up to a tenth of `intervalMs`; an answer (200) is recorded with its wall-clock time and the
 * new ETag held, then opens again after the same jitter; a failure waits the agent's backoff
 * (lib/edge-agent/backoff.ts) before the next hold, or the center's Retry-After of a shed one
 * (429) when longer, as the agent does; a shed heartbeat is sent again after its Retry-After when
 * that comes before the next beat. First holds open spread over `openSpreadMs`,
 * heartbeats spread over their period. The run keeps every request's start time (wall clock, so
 * the parent can count a window of it) by kind, and samples its own open files each second, until
 * `stop()`.
 */
import { setMaxListeners } from 'node:events'
import { Agent } from 'node:http'
import { parseAppliedWait } from '../lib/edge/prefer-wait.ts'
import { nextDelay } from '../lib/edge-agent/poll-loop.ts'
import { retryAfterOf } from '../lib/edge-agent/retry-after.ts'
import { nodeTransport } from '../lib/remote/node-transport.ts'
import { createRemote } from '../lib/remote/remote-client.ts'
import { desiredPath, type PollTarget } from './edge-poll.ts'
import { openFiles } from './open-files.ts'

export type HeldFleetInput = {
  baseUrl: string
  targets: PollTarget[]
  holdSeconds: number
  /** The agents' plain interval: the re-hold jitter is up to a tenth of it. */
  intervalMs: number
  heartbeatMs: number
  openSpreadMs: number
}

export type HeldFleetResult = {
  /** Start times (epoch ms) of every held poll and every heartbeat sent. */
  holdStarts: number[]
  beatStarts: number[]
  /** Holds answered 304 (ended unchanged), 200 (the mailbox moved), or failed. */
  ended: number
  answered: number
  failed: number
  beatsFailed: number
  /** Holds the center did not apply (no Preference-Applied): each is a defect of the run. */
  notHeld: number
  /** Per target, the wall-clock times of its 200 answers. */
  answers: number[][]
  /** The most requests this fleet had in flight at once, and its open files then. */
  peakInFlight: number
  peakOpenFiles: number
  failures: Record<string, number>
}

/** A fleet record before its first request: nothing counted, no answers for any of `targets`. */
export const emptyHeldFleetResult = (targets = 0): HeldFleetResult => ({
  holdStarts: [],
  beatStarts: [],
  ended: 0,
  answered: 0,
  failed: 0,
  beatsFailed: 0,
  notHeld: 0,
  answers: Array.from({ length: targets }, () => []),
  peakInFlight: 0,
  peakOpenFiles: 0,
  failures: {},
})

const HEARTBEAT = { kind: 'Report', heartbeat: true }
/** Connections the heartbeats of one fleet process share. */
const BEAT_SOCKETS = 32

export type HeldFleet = {
  /** Holds now open. */
  held(): number
  /** 200 answers so far. */
  answeredCount(): number
  /** Holds and heartbeats failed so far. */
  failedCounts(): { failed: number; beatsFailed: number }
  stop(): Promise<HeldFleetResult>
}

export function startHeldFleet(input: HeldFleetInput): HeldFleet {
  const { targets, holdSeconds, intervalMs, heartbeatMs } = input
  // A held poll waits longer than any plain request: its limit is the hold and then some. Each
  // open hold is a socket; heartbeats share a small pool of their own (an agent's beat goes on a
  // connection beside its hold), so the sockets are the holds and a few.
  const holdAgent = new Agent({ keepAlive: true })
  const beatAgent = new Agent({ keepAlive: true, maxSockets: BEAT_SOCKETS })
  const holds = createRemote({
    baseUrl: input.baseUrl,
    timeoutMs: (holdSeconds + 60) * 1000,
    fetch: nodeTransport({ agent: holdAgent }),
  })
  const beats = createRemote({
    baseUrl: input.baseUrl,
    timeoutMs: 30_000,
    fetch: nodeTransport({ agent: beatAgent }),
  })
  const r = emptyHeldFleetResult(targets.length)
  let stopped = false
  let inFlight = 0
  let holding = 0
  const abort = new AbortController()
  // every lane's wait listens to it (the requests follow it through one listener, lib/linked-signal.ts)
  setMaxListeners(0, abort.signal)
  const sleep = (ms: number) =>
    new Promise<void>((done) => {
      if (stopped) return done()
      const timer = setTimeout(done, Math.max(0, ms))
      const early = () => {
        clearTimeout(timer)
        done()
      }
      abort.signal.addEventListener('abort', early, { once: true })
    })
  const sampler = setInterval(() => {
    r.peakOpenFiles = Math.max(r.peakOpenFiles, openFiles())
  }, 1000)
  const fail = (why: string) => {
    r.failures[why] = (r.failures[why] ?? 0) + 1
  }
  const begin = () => {
    inFlight++
    if (inFlight > r.peakInFlight) r.peakInFlight = inFlight
  }
  const why = (e: unknown) =>
    (e instanceof Error ? e.message : String(e)).replace(/^[A-Z]+ \S+: /, '').slice(0, 80)

  /** A hold: true when answered (200/304), else the wait its Retry-After asked, if any. */
  const holdOne = async (i: number): Promise<true | number | undefined> => {
    const t = targets[i]!
    r.holdStarts.push(Date.now())
    begin()
    holding++
    try {
      const res = await holds.send(desiredPath(t.mailbox), {
        headers: {
          authorization: `Bearer ${t.token}`,
          'if-none-match': t.etag,
          prefer: `wait=${holdSeconds}`,
        },
        signal: abort.signal,
      })
      await res.arrayBuffer()
      if (parseAppliedWait(res.headers.get('preference-applied')) === undefined) r.notHeld++
      if (res.status === 304) r.ended++
      else if (res.status === 200) {
        r.answered++
        r.answers[i]!.push(Date.now())
        t.etag = res.headers.get('etag') ?? t.etag
      } else {
        r.failed++
        fail(`hold ${res.status}`)
        return retryAfterOf(res, Date.now())
      }
      return true
    } catch (e) {
      if (!stopped) {
        r.failed++
        fail(`hold ${why(e)}`)
      }
      return undefined
    } finally {
      holding--
      inFlight--
    }
  }
  const holdLane = async (i: number) => {
    await sleep((i / Math.max(1, targets.length)) * input.openSpreadMs)
    let failures = 0
    while (!stopped) {
      const out = await holdOne(i)
      failures = out === true ? 0 : failures + 1
      if (stopped) break
      await sleep(
        out === true
          ? intervalMs * 0.1 * Math.random()
          : nextDelay({ intervalMs, retryAfterMs: () => out }, failures, Math.random)
      )
    }
  }
  /** A heartbeat: the wait a shed one's Retry-After asked, else undefined. */
  const beatOne = async (t: PollTarget): Promise<number | undefined> => {
    r.beatStarts.push(Date.now())
    begin()
    try {
      const res = await beats.send(`/edge/v1/mailboxes/${t.mailbox}/reports`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.token}` },
        body: HEARTBEAT,
        signal: abort.signal,
      })
      await res.arrayBuffer()
      if (res.status !== 200) {
        r.beatsFailed++
        fail(`beat ${res.status}`)
        return retryAfterOf(res, Date.now())
      }
    } catch (e) {
      if (!stopped) {
        r.beatsFailed++
        fail(`beat ${why(e)}`)
      }
    } finally {
      inFlight--
    }
  }
  const beatLane = async (i: number) => {
    const t0 = Date.now() + (i / Math.max(1, targets.length)) * heartbeatMs
    for (let k = 0; !stopped; k++) {
      await sleep(t0 + k * heartbeatMs - Date.now())
      if (stopped) break
      const again = await beatOne(targets[i]!)
      if (again !== undefined && Date.now() + again < t0 + (k + 1) * heartbeatMs) {
        await sleep(again)
        if (!stopped) await beatOne(targets[i]!)
      }
    }
  }
  const lanes = targets.flatMap((_, i) => [holdLane(i), heartbeatMs > 0 ? beatLane(i) : null])
  return {
    held: () => holding,
    answeredCount: () => r.answered,
    failedCounts: () => ({ failed: r.failed, beatsFailed: r.beatsFailed }),
    async stop() {
      stopped = true
      abort.abort()
      clearInterval(sampler)
      await Promise.all(lanes)
      holdAgent.destroy()
      beatAgent.destroy()
      return r
    },
  }
}
