/**
 * Options of startHubWorker (infra/local/hub-worker.ts) for tests: a free port, a fresh
 * certificate, a DynamoDB endpoint nothing listens on, state and log in `dir`, and `command` run
 * in place of wrangler dev (a stand-in Node program; it serves on EDGEPLANE_WORKER_PORT, and
 * answers the label in EDGEPLANE_WORKER_INSTANCE as the Worker answers its INSTANCE_ID).
 */
import { join } from 'node:path'
import type { HubWorkerOptions } from '../../../infra/local/hub-worker.ts'
import { pickFreePort } from '../../../infra/local/ports.ts'
import { createLocalHubCert } from '../../../infra/local/tls-cert.ts'
import { INSTANCE_HEADER } from '../../../lib/instance-label.ts'

export async function hubWorkerOptions(dir: string, command: string[]): Promise<HubWorkerOptions> {
  return {
    repoRoot: dir,
    port: await pickFreePort(),
    ddbEndpoint: 'http://127.0.0.1:1',
    tableName: 'edgeplane',
    logLevel: 'info',
    persistTo: join(dir, 'state'),
    logFile: join(dir, 'wrangler.log'),
    tls: createLocalHubCert(),
    readyTimeoutMs: 20_000,
    command,
  }
}

/**
 * JS for a stand-in's server: plain http on EDGEPLANE_WORKER_PORT answering `ok` with the
 * instance label, as the Worker's /healthz does (lib/instance-label.ts); it answers only while the
 * expression `answering` is true, and `labelled` false leaves the label out (a foreign process).
 */
export function standInServer(answering = 'true', labelled = true): string {
  const label = labelled
    ? `s.setHeader(${JSON.stringify(INSTANCE_HEADER)}, process.env.EDGEPLANE_WORKER_INSTANCE); `
    : ''
  return [
    `require('node:http').createServer((q, s) => { if (${answering}) { ${label}s.end('ok') } })`,
    ".listen(Number(process.env.EDGEPLANE_WORKER_PORT), '127.0.0.1')",
  ].join('')
}
