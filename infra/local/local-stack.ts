/**
 * Starts the local center, in order, and stops it in reverse:
 *   1. the data folder and its lock (one stack per folder), the admin token, the TLS certificate
 *   2. dynalite on a free port, persisted under the data folder
 *   3. the table (if missing) and the hub bootstrap (root, root:espw, admin token)
 *   4. `wrangler dev` on https://127.0.0.1:EDGEPLANE_PORT (a self-signed certificate kept in the
 *      data folder: kubectl sends tokens only over https), waited for until /healthz answers 200
 *   5. the local cron ticker
 *   6. (next issues) the watch relay and the simulated edge clusters — add them as parts here
 *   7. the kubeconfig and stack.json
 * Every started part is a `Part` with a `stop()`; a failure while starting stops what was started.
 */
import type { Logger } from '../../lib/log.ts'
import { startCronTicker } from './cron-ticker.ts'
import { loadOrCreateAdminToken, loadOrCreateTls, prepareDataDir } from './data-dir.ts'
import { startDynalite } from './dynalite-server.ts'
import { waitHealthy } from './health.ts'
import { prepareHub } from './hub-setup.ts'
import { writeKubeconfig } from './kubeconfig.ts'
import type { LocalConfig } from './local-config.ts'
import { acquireLock } from './lock-file.ts'
import { tailFile } from './log-tail.ts'
import { assertPortFree, pickFreePort } from './ports.ts'
import { removeStackInfo, type StackInfo, writeStackInfo } from './stack-info.ts'
import { startWrangler } from './wrangler-process.ts'

export type Part = { name: string; stop(): Promise<void> }

export type LocalStack = {
  info: StackInfo
  /** Resolves with a readable reason (log tail included) if a part dies on its own. */
  failed: Promise<string>
  stop(): Promise<void>
}

export type LocalStackOptions = {
  /** Folder holding wrangler.toml. */
  repoRoot: string
  log: Logger
  /** How long wrangler dev may take to answer /healthz. */
  readyTimeoutMs?: number
  cronPeriodMs?: number
  /** Aborting stops the start: what was started is stopped and the error is rethrown. */
  signal?: AbortSignal
}

/** The spaces that get a kubeconfig context; the first is the current context. */
export const CONTEXT_SPACES = ['root', 'root:espw']

async function stopAll(parts: Part[], log: Logger): Promise<void> {
  for (const part of [...parts].reverse()) {
    try {
      await part.stop()
      log.info('stopped', { part: part.name })
    } catch (e) {
      log.error('stopping failed', { part: part.name, error: e })
    }
  }
}

function abortReason(signal: AbortSignal | undefined): string | undefined {
  if (!signal?.aborted) return undefined
  return signal.reason instanceof Error ? signal.reason.message : 'aborted'
}

async function withTail(reason: string, logFile: string): Promise<string> {
  const tail = await tailFile(logFile, 40)
  return tail ? `${reason}; last lines of ${logFile}:\n${tail}` : reason
}

export async function startLocalStack(
  cfg: LocalConfig,
  opts: LocalStackOptions
): Promise<LocalStack> {
  const { log } = opts
  const checkAborted = () => opts.signal?.throwIfAborted()
  const paths = await prepareDataDir(cfg.dataDir)
  const lock = await acquireLock(`${paths.root}/lock`)
  const parts: Part[] = [{ name: 'lock', stop: () => lock.release() }]
  try {
    await assertPortFree(cfg.port)
    const hubUrl = `https://127.0.0.1:${cfg.port}`
    const admin = await loadOrCreateAdminToken(paths)
    log.info('admin token', { file: paths.adminToken, created: admin.created })
    const tls = await loadOrCreateTls(paths)
    log.info('tls certificate', { file: paths.tlsCert, created: tls.created })

    checkAborted()
    const db = await startDynalite({ path: paths.dynalite })
    parts.push({ name: 'dynalite', stop: () => db.close() })
    log.info('dynalite listening', { endpoint: db.endpoint, path: paths.dynalite })

    await prepareHub({
      ddbEndpoint: db.endpoint,
      tableName: cfg.tableName,
      adminToken: admin.token,
      baseUrl: hubUrl,
      log,
    })

    checkAborted()
    const inspectorPort = await pickFreePort()
    const wrangler = startWrangler({
      cwd: opts.repoRoot,
      port: cfg.port,
      inspectorPort,
      persistTo: paths.wrangler,
      logFile: paths.wranglerLog,
      tls: { certPath: paths.tlsCert, keyPath: paths.tlsKey },
      vars: { DDB_ENDPOINT: db.endpoint, TABLE_NAME: cfg.tableName, LOG_LEVEL: cfg.logLevel },
    })
    parts.push({ name: 'wrangler', stop: () => wrangler.stop() })
    log.info('wrangler dev starting', { pid: wrangler.pid, port: cfg.port, log: paths.wranglerLog })
    try {
      await waitHealthy(`${hubUrl}/healthz`, {
        timeoutMs: opts.readyTimeoutMs ?? 120_000,
        ca: tls.certPem,
        gaveUp: () =>
          wrangler.exitReason() ?? wrangler.startupProblem() ?? abortReason(opts.signal),
      })
    } catch (e) {
      throw new Error(await withTail((e as Error).message, paths.wranglerLog))
    }

    checkAborted()
    const ticker = startCronTicker({
      hubUrl,
      periodMs: opts.cronPeriodMs ?? 60_000,
      log,
      ca: tls.certPem,
    })
    parts.push({ name: 'cron', stop: () => ticker.stop() })

    // The watch relay and the simulated edge clusters (next issues) start here, as more parts.

    await writeKubeconfig(paths.kubeconfig, {
      hubUrl,
      adminToken: admin.token,
      caPem: tls.certPem,
      spaces: CONTEXT_SPACES,
    })
    const info: StackInfo = {
      pid: process.pid,
      url: hubUrl,
      port: cfg.port,
      dataDir: paths.root,
      kubeconfig: paths.kubeconfig,
      adminTokenFile: paths.adminToken,
      caFile: paths.tlsCert,
      dynalite: { endpoint: db.endpoint, port: db.port, path: paths.dynalite },
      tableName: cfg.tableName,
      wrangler: { pid: wrangler.pid, inspectorPort, logFile: paths.wranglerLog },
      startedAt: new Date().toISOString(),
    }
    await writeStackInfo(paths.stackInfo, info)
    parts.push({ name: 'stack.json', stop: () => removeStackInfo(paths.stackInfo) })

    let stopping: Promise<void> | undefined
    return {
      info,
      failed: wrangler.exited.then((reason) => withTail(reason, paths.wranglerLog)),
      stop: () => {
        stopping ??= stopAll(parts, log)
        return stopping
      },
    }
  } catch (e) {
    await stopAll(parts, log)
    throw e
  }
}
