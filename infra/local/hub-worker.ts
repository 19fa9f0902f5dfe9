/**
 * The hub Worker under `wrangler dev`, started and waited for: picks a free inspector port, runs
 * wrangler on https://127.0.0.1:<port> against the given dynalite, and resolves once /healthz
 * answers 200 (trusting the hub's certificate). Gives up — stopping wrangler — when wrangler exits,
 * its build fails, the start is aborted or the deadline passes, with the tail of its log.
 */
import { waitHealthy } from './health.ts'
import { withLogTail } from './log-tail.ts'
import { pickFreePort } from './ports.ts'
import { startWrangler, type WranglerProcess } from './wrangler-process.ts'

export type HubWorkerOptions = {
  repoRoot: string
  port: number
  ddbEndpoint: string
  tableName: string
  logLevel: string
  persistTo: string
  logFile: string
  tls: { certPath: string; keyPath: string; certPem: string }
  readyTimeoutMs: number
  signal?: AbortSignal
  /** A Node program and arguments to run instead of wrangler dev (tests). */
  command?: string[]
  /** Called as soon as wrangler runs, before it is healthy. */
  onSpawn?: (w: WranglerProcess) => void
}

/** The hub's URL for a port (always https on loopback). */
export function hubUrlFor(port: number): string {
  return `https://127.0.0.1:${port}`
}

export type HubWorker = { url: string; inspectorPort: number; wrangler: WranglerProcess }

function abortReason(signal: AbortSignal | undefined): string | undefined {
  if (!signal?.aborted) return undefined
  return signal.reason instanceof Error ? signal.reason.message : 'aborted'
}

export async function startHubWorker(opts: HubWorkerOptions): Promise<HubWorker> {
  const url = hubUrlFor(opts.port)
  const inspectorPort = await pickFreePort()
  const wrangler = startWrangler({
    cwd: opts.repoRoot,
    port: opts.port,
    inspectorPort,
    persistTo: opts.persistTo,
    logFile: opts.logFile,
    tls: { certPath: opts.tls.certPath, keyPath: opts.tls.keyPath },
    vars: { DDB_ENDPOINT: opts.ddbEndpoint, TABLE_NAME: opts.tableName, LOG_LEVEL: opts.logLevel },
    ...(opts.command ? { command: opts.command } : {}),
  })
  opts.onSpawn?.(wrangler)
  try {
    await waitHealthy(`${url}/healthz`, {
      timeoutMs: opts.readyTimeoutMs,
      ca: opts.tls.certPem,
      gaveUp: () => wrangler.exitReason() ?? wrangler.startupProblem() ?? abortReason(opts.signal),
    })
  } catch (e) {
    await wrangler.stop()
    throw new Error(await withLogTail((e as Error).message, opts.logFile))
  }
  return { url, inspectorPort, wrangler }
}
