/**
 * Starts the health server (lib/metrics/health-server.ts) of a long-running infra program with
 * the settings its flags gave (infra/health-flags.ts) and logs where it listens — with port 0
 * that log line is the only way to learn the port. Rejects with a clear message when the port
 * cannot be bound; the program then exits 1 (a probe target it cannot serve is a start failure).
 */
import type { Logger } from '../lib/log.ts'
import { type Check, type HealthServer, startHealthServer } from '../lib/metrics/health-server.ts'
import type { HealthSettings } from './health-flags.ts'

export type HealthSources = { live(): Check; ready(): Check; metrics(): string }

export async function serveHealth(
  settings: HealthSettings,
  sources: HealthSources,
  log: Logger
): Promise<HealthServer> {
  try {
    const server = await startHealthServer({ ...settings, ...sources })
    log.info('health server listening', {
      port: server.port,
      host: settings.host ?? 'all',
      paths: ['/healthz', '/readyz', '/metrics'],
    })
    return server
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e)
    throw new Error(`cannot serve /healthz and /metrics on port ${settings.port}: ${why}`)
  }
}
