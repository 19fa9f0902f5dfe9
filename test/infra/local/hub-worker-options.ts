/**
 * Options of startHubWorker (infra/local/hub-worker.ts) for tests: a free port, a fresh
 * certificate, a DynamoDB endpoint nothing listens on, state and log in `dir`, and `command` run
 * in place of wrangler dev (a stand-in Node program; it serves on EDGEPLANE_WORKER_PORT).
 */
import { join } from 'node:path'
import type { HubWorkerOptions } from '../../../infra/local/hub-worker.ts'
import { pickFreePort } from '../../../infra/local/ports.ts'
import { createLocalHubCert } from '../../../infra/local/tls-cert.ts'

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
