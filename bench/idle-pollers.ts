/**
 * The idle fleet, a program of its own so that its CPU is not the center's: `node
 * --experimental-strip-types bench/idle-pollers.ts` reads `{ baseUrl, targets, intervalMs,
 * durationMs }` (JSON) from stdin and polls every target's desired state once per interval, the
 * targets spread evenly over it, each naming the version it holds (If-None-Match), as idle agents
 * do, until the duration is over; then prints `{ polls, notModified, failed, latencyMs, bytes }`
 * (JSON) on stdout, `bytes` being the HTTP/1.1 bytes of one poll on average, request and answer
 * (start line, headers and body; TLS and TCP aside). A poll answered other than 304 counts as failed (and is not retried), so a broken
 * endpoint cannot pass for an idle one. With `heartbeatMs`, every target also posts a heartbeat
 * report (`{ kind: 'Report', heartbeat: true }`, what an idle agent sends once a minute) once per
 * that period, spread evenly over it, counted apart (`heartbeats`: sent, failed, latency, and the
 * failures by answer code and reason or error message).
 * `--help` says this.
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
  latencyMs: ReturnType<typeof summarize>
  /** HTTP/1.1 bytes per poll on average: start line, headers and body. */
  bytes: { request: number; response: number }
  heartbeats: {
    sent: number
    failed: number
    latencyMs: ReturnType<typeof summarize>
    /** Failed heartbeats by why: the answer's code and reason, or the error's message. */
    failures: Record<string, number>
  }
}

const HEARTBEAT = { kind: 'Report', heartbeat: true }

/** Calls `fire(i)` for i = 0, 1, ... every `stepMs` from `start` until `durationMs` passed. */
async function paced(start: number, stepMs: number, durationMs: number, fire: (i: number) => void) {
  for (let i = 0; ; i++) {
    const due = start + i * stepMs
    if (due - start >= durationMs) return
    const wait = due - performance.now()
    if (wait > 1) await new Promise((r) => setTimeout(r, wait))
    fire(i)
  }
}

const headerBytes = (headers: Iterable<[string, string]>) => {
  let n = 2 // the blank line ending the headers
  for (const [k, v] of headers) n += k.length + v.length + 4
  return n
}

async function readStdin(): Promise<string> {
  let text = ''
  for await (const chunk of process.stdin) text += chunk
  return text
}

async function run(input: IdleFleetInput): Promise<IdleFleetResult> {
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
  await Promise.all([
    paced(start, intervalMs / n, durationMs, (i) => track(pollOne(targets[i % n]!))),
    input.heartbeatMs
      ? paced(start, input.heartbeatMs / n, durationMs, (i) => track(beatOne(targets[i % n]!)))
      : undefined,
  ])
  await Promise.all(inFlight)
  const polls = Math.max(1, latencies.length)
  return {
    polls: latencies.length,
    notModified,
    failed,
    latencyMs: summarize(latencies),
    bytes: { request: requestBytes / polls, response: responseBytes / polls },
    heartbeats: {
      sent: beats.length,
      failed: beatsFailed,
      latencyMs: summarize(beats),
      failures,
    },
  }
}

if (process.argv.includes('--help')) {
  process.stdout.write(
    'usage: node --experimental-strip-types bench/idle-pollers.ts < input.json\n' +
      'input: { baseUrl, targets: [{ mailbox, token, etag }], intervalMs, durationMs, heartbeatMs? }\n'
  )
} else {
  const input = JSON.parse(await readStdin()) as IdleFleetInput
  process.stdout.write(`${JSON.stringify(await run(input))}\n`)
}
