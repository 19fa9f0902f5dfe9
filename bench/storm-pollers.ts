/**
 * The storm fleet, a program of its own so that its CPU is not the center's: `node
 * --experimental-strip-types bench/storm-pollers.ts` reads JSON lines on stdin — first the run's
 * input `{ baseUrl, targets: [{ mailbox, token, etag }], intervalMs, heartbeatMs, capMs,
 * warmCapMs, timeoutMs? }`, later `{ "stopAt": <epoch ms> }` when the parent has stopped the
 * center — and runs one simulated agent per target with the real agent's poll, heartbeat, backoff
 * and Retry-After rules (storm-fleet-run.ts, storm-agent.ts). It prints JSON lines on stdout:
 * `{ "event": "warm", at, warmed }` once every agent had a heartbeat accepted, `{ "event":
 * "progress", recovered, lagMaxMs, heapMb }` every PROGRESS_MS after the stop (the fleet's own
 * longest event-loop stall since the last one, and its heap: a stalled fleet would make the
 * center look slow), and last
 * `{ "event": "result", ... }` (StormFleetRaw: per-second counts, per-agent recovery times) when
 * every agent has recovered after the stop, `capMs` after it, or when stdin closes. `--help`
 * says this.
 */
import { createInterface } from 'node:readline'
import { watchLoopStalls } from './loop-stalls.ts'
import { runStormFleet, type StormFleetInput } from './storm-fleet-run.ts'

export type { StormFleetInput, StormFleetRaw } from './storm-fleet-run.ts'

const say = (line: unknown) => process.stdout.write(`${JSON.stringify(line)}\n`)
const heapMb = () => Math.round(process.memoryUsage().heapUsed / 2 ** 20)

if (process.argv.includes('--help')) {
  process.stdout.write(
    'usage: node --experimental-strip-types bench/storm-pollers.ts\n' +
      'stdin, JSON lines: { baseUrl, targets: [{ mailbox, token, etag }], intervalMs, heartbeatMs, capMs, warmCapMs, timeoutMs? }\n' +
      '                   then { stopAt } (epoch ms) once the center is stopped\n' +
      'stdout, JSON lines: { event: "warm", at, warmed }, { event: "progress", recovered, lagMaxMs, heapMb }\n' +
      '                   every 30 s after the stop, then { event: "result", ..., lagMaxMs }\n'
  )
} else {
  const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]()
  const first = await lines.next()
  if (first.done) throw new Error('storm pollers: no input on stdin')
  const input = JSON.parse(first.value) as StormFleetInput
  const abort = new AbortController()
  const stalls = watchLoopStalls()
  const stopped = (async () => {
    for (let l = await lines.next(); !l.done; l = await lines.next()) {
      const at = (JSON.parse(l.value) as { stopAt?: unknown }).stopAt
      if (typeof at === 'number') return at
    }
    abort.abort()
    return new Promise<number>(() => undefined)
  })()
  const raw = await runStormFleet(input, {
    stopped,
    abort: abort.signal,
    onWarm: (at, warmed) => say({ event: 'warm', at, warmed }),
    onProgress: (recovered) =>
      say({ event: 'progress', recovered, lagMaxMs: stalls.tick(), heapMb: heapMb() }),
  })
  const lagMaxMs = stalls.longest()
  // a pipe's write is asynchronous: exit once the (large) line is out, never before
  process.stdout.write(`${JSON.stringify({ event: 'result', ...raw, lagMaxMs })}\n`, () =>
    process.exit(0)
  )
}
