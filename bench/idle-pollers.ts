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
 * An agent has one request in flight at a time (`skipped`: what fell due meanwhile and was not
 * sent; idle-fleet-run.ts).
 * `--help` says this.
 */
import { type IdleFleetInput, runIdleFleet } from './idle-fleet-run.ts'

export type { IdleFleetInput, IdleFleetResult } from './idle-fleet-run.ts'

async function readStdin(): Promise<string> {
  let text = ''
  for await (const chunk of process.stdin) text += chunk
  return text
}

if (process.argv.includes('--help')) {
  process.stdout.write(
    'usage: node --experimental-strip-types bench/idle-pollers.ts < input.json\n' +
      'input: { baseUrl, targets: [{ mailbox, token, etag }], intervalMs, durationMs, heartbeatMs? }\n'
  )
} else {
  const input = JSON.parse(await readStdin()) as IdleFleetInput
  process.stdout.write(`${JSON.stringify(await runIdleFleet(input))}\n`)
}
