/**
 * The idle fleet, a program of its own so that its CPU is not the center's: `node
 * --experimental-strip-types bench/idle-pollers.ts` reads `{ baseUrl, targets, intervalMs,
 * durationMs }` (JSON) from stdin and polls every target's desired state once per interval, the
 * targets spread evenly over it, each naming the version it holds (If-None-Match), as idle agents
 * do, until the duration is over; then prints `{ polls, notModified, failed, latencyMs, bytes }`
 * (JSON) on stdout, `bytes` being the HTTP/1.1 bytes of one poll on average, request and answer
 * (start line, headers and body; TLS and TCP aside). A poll answered other than 304 counts as failed (and is not retried), so a broken
 * endpoint cannot pass for an idle one. `--help` says this.
 */
import { createRemote } from '../lib/remote/remote-client.ts'
import { desiredPath, type PollTarget } from './edge-poll.ts'
import { summarize } from './stats.ts'

export type IdleFleetInput = {
  baseUrl: string
  targets: PollTarget[]
  intervalMs: number
  durationMs: number
}

export type IdleFleetResult = {
  polls: number
  notModified: number
  failed: number
  latencyMs: ReturnType<typeof summarize>
  /** HTTP/1.1 bytes per poll on average: start line, headers and body. */
  bytes: { request: number; response: number }
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
  const step = intervalMs / Math.max(1, targets.length)
  for (let i = 0; ; i++) {
    const due = start + i * step
    if (due - start >= durationMs) break
    const wait = due - performance.now()
    if (wait > 1) await new Promise((r) => setTimeout(r, wait))
    const p = pollOne(targets[i % targets.length]!).finally(() => inFlight.delete(p))
    inFlight.add(p)
  }
  await Promise.all(inFlight)
  const polls = Math.max(1, latencies.length)
  return {
    polls: latencies.length,
    notModified,
    failed,
    latencyMs: summarize(latencies),
    bytes: { request: requestBytes / polls, response: responseBytes / polls },
  }
}

if (process.argv.includes('--help')) {
  process.stdout.write(
    'usage: node --experimental-strip-types bench/idle-pollers.ts < input.json\n' +
      'input: { baseUrl, targets: [{ mailbox, token, etag }], intervalMs, durationMs }\n'
  )
} else {
  const input = JSON.parse(await readStdin()) as IdleFleetInput
  process.stdout.write(`${JSON.stringify(await run(input))}\n`)
}
