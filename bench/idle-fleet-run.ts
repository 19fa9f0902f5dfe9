/**
 * One idle fleet's run (the program is idle-pollers.ts, which says what it measures): every
 * target polls its desired state once per interval, the targets spread evenly over it, and with
 * `heartbeatMs` also posts a heartbeat report once per that period. An agent has one request in
 * flight at a time, as the real one does (its poll, apply and report follow one another): a poll
 * or heartbeat that falls due while its agent's last request is still unanswered is not sent but
 * counted (`skipped`, `heartbeats.skipped`). So a slow center sees at most one connection per
 * agent, and the fleet never holds more sockets than it has agents: a pool without that bound
 * grew past this machine's 20,000 open files while the center was saturated, and failed with
 * EMFILE.
 */
import { createRemote } from '../lib/remote/remote-client.ts'
import { desiredPath, type PollTarget } from './edge-poll.ts'
import { summarize } from './stats.ts'

export type IdleFleetInput = {
  baseUrl: string
  targets: PollTarget[]
  intervalMs: number
  durationMs: number
  /** Each target's heartbeat period; absent or 0: no heartbeats. */
  heartbeatMs?: number
}

export type IdleFleetResult = {
  polls: number
  notModified: number
  failed: number
  /** Polls not sent: their agent's last request was still in flight. */
  skipped: number
  latencyMs: ReturnType<typeof summarize>
  /** HTTP/1.1 bytes per poll on average: start line, headers and body. */
  bytes: { request: number; response: number }
  heartbeats: {
    sent: number
    failed: number
    /** Heartbeats not sent: their agent's last request was still in flight. */
    skipped: number
    latencyMs: ReturnType<typeof summarize>
    /** Failed heartbeats by why: the answer's code and reason, or the error's message. */
    failures: Record<string, number>
  }
}

const HEARTBEAT = { kind: 'Report', heartbeat: true }

/**
 * Calls `fire(i)` for i = 0, 1, ... every `stepMs` from `start` until `durationMs` passed: the
 * count is fixed first, with a float's rounding taken off (comparing `due - start` once made one
 * call too many).
 */
async function paced(start: number, stepMs: number, durationMs: number, fire: (i: number) => void) {
  const count = Math.ceil(Number((durationMs / stepMs).toFixed(6)))
  for (let i = 0; i < count; i++) {
    const wait = start + i * stepMs - performance.now()
    if (wait > 1) await new Promise((r) => setTimeout(r, wait))
    fire(i)
  }
}

const headerBytes = (headers: Iterable<[string, string]>) => {
  let n = 2 // the blank line ending the headers
  for (const [k, v] of headers) n += k.length + v.length + 4
  return n
}

export async function runIdleFleet(input: IdleFleetInput): Promise<IdleFleetResult> {
  const { targets, intervalMs, durationMs } = input
  const remote = createRemote({ baseUrl: input.baseUrl, timeoutMs: 30_000 })
  const start = performance.now()
  const latencies: number[] = []
  let notModified = 0
  let failed = 0
  const inFlight = new Set<Promise<void>>()
  const host = new URL(input.baseUrl).host
  let requestBytes = 0
  let responseBytes = 0
  const pollOne = async (t: PollTarget) => {
    const t0 = performance.now()
    try {
      const path = desiredPath(t.mailbox)
      const headers = { 'if-none-match': t.etag, authorization: `Bearer ${t.token}` }
      requestBytes +=
        `GET ${path} HTTP/1.1\r\n`.length +
        headerBytes([...Object.entries(headers), ['host', host]])
      const res = await remote.send(path, { headers })
      const body = new Uint8Array(await res.arrayBuffer())
      responseBytes +=
        `HTTP/1.1 ${res.status} ${res.statusText}\r\n`.length +
        headerBytes(res.headers) +
        body.length
      if (res.status === 304) notModified++
      else failed++
    } catch {
      failed++
    }
    latencies.push(performance.now() - t0)
  }
  const beats: number[] = []
  let beatsFailed = 0
  const failures: Record<string, number> = {}
  const fail = (why: string) => {
    beatsFailed++
    failures[why] = (failures[why] ?? 0) + 1
  }
  const beatOne = async (t: PollTarget) => {
    const t0 = performance.now()
    try {
      const res = await remote.send(`/edge/v1/mailboxes/${t.mailbox}/reports`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.token}` },
        body: HEARTBEAT,
      })
      const text = await res.text()
      if (res.status !== 200) {
        let reason = ''
        try {
          reason = String((JSON.parse(text) as { reason?: unknown }).reason ?? '')
        } catch {
          // not a Status
        }
        fail(`${res.status} ${reason}`.trim())
      }
    } catch (e) {
      // the remote client's message starts with the request ("POST /edge/v1/...: ")
      const text = e instanceof Error ? e.message : String(e)
      fail(text.replace(/^[A-Z]+ \S+: /, '').slice(0, 80))
    }
    beats.push(performance.now() - t0)
  }
  const track = (p: Promise<void>) => {
    const q = p.finally(() => inFlight.delete(q))
    inFlight.add(q)
  }
  const n = Math.max(1, targets.length)
  const busy = new Set<number>()
  let pollsSkipped = 0
  let beatsSkipped = 0
  /** Sends agent `i`'s request unless its last one is in flight; whether it was sent. */
  const one = (i: number, send: (t: PollTarget) => Promise<void>): boolean => {
    const agent = i % n
    if (busy.has(agent)) return false
    busy.add(agent)
    track(send(targets[agent]!).finally(() => busy.delete(agent)))
    return true
  }
  await Promise.all([
    paced(start, intervalMs / n, durationMs, (i) => {
      if (!one(i, pollOne)) pollsSkipped++
    }),
    input.heartbeatMs
      ? paced(start, input.heartbeatMs / n, durationMs, (i) => {
          if (!one(i, beatOne)) beatsSkipped++
        })
      : undefined,
  ])
  await Promise.all(inFlight)
  const polls = Math.max(1, latencies.length)
  return {
    polls: latencies.length,
    notModified,
    failed,
    skipped: pollsSkipped,
    latencyMs: summarize(latencies),
    bytes: { request: requestBytes / polls, response: responseBytes / polls },
    heartbeats: {
      sent: beats.length,
      failed: beatsFailed,
      skipped: beatsSkipped,
      latencyMs: summarize(beats),
      failures,
    },
  }
}
