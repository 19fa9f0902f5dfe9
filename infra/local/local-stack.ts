/**
 * Starts the local center, in order, and stops it in reverse:
 *   1. the data folder and its lock (one stack per folder), leftovers of a crashed run, the admin
 *      token, the TLS certificate, the store key (store-key.ts)
 *   2. dynalite on a free port, persisted under the data folder (checked writable first:
 *      store-folder.ts), serving only requests signed with the store key (the Worker, the
 *      bootstrap, the relay and the edges get it), in a child process started again whenever it
 *      fails (dynalite-process.ts: a cut request or a full disk ends the store, never the stack)
 *   3. the table (if missing) and the hub bootstrap (root, root:espw, admin token)
 *   4. the hub's front on https://127.0.0.1:EDGEPLANE_PORT (a self-signed certificate kept in the
 *      data folder: kubectl sends tokens only over https; it refuses dot-segment and other raw
 *      request-targets workerd would normalize) and `wrangler dev` behind it on a loopback http
 *      port, answering only what the front forwards (a per-start secret header), waited for until /healthz answers 200 through the front, then supervised
 *      (hub-supervisor.ts: restarted when wrangler or its workerd dies, a bounded number of times)
 *   5. the local cron ticker
 *   6. the watch relay (infra/relay/main.ts) as a supervised child (relay-child.ts), restarted
 *      when it dies, its output in relay.log, unless EDGEPLANE_RELAY=off
 *   7. the simulated edge clusters of EDGEPLANE_EDGES with their agents (local-edges.ts)
 *   8. the kubeconfig (a context per space and per edge) and stack.json (rewritten with new pids
 *      whenever a supervised child is restarted)
 * A staleness threshold the environment sets (EDGEPLANE_STALE_AFTER) goes to the Worker and the
 * relay as EDGE_STALE_AFTER_SECONDS and to the agents as the heartbeat period the rule derives
 * from it (lib/summarize/liveness.ts); the polls' holds go likewise (local-config.ts). Every
 * started part is a `Part` with a `stop()` (parts.ts); a failure while starting stops them.
 */
import { dirname } from 'node:path'
import type { Logger } from '../../lib/log.ts'
import { createRemote } from '../../lib/remote/remote-client.ts'
import { livenessRule } from '../../lib/summarize/liveness.ts'
import { startCronTicker } from './cron-ticker.ts'
import { loadOrCreateAdminToken, loadOrCreateTls, prepareDataDir } from './data-dir.ts'
import { startDynaliteProcess } from './dynalite-process.ts'
import { prepareHub } from './hub-setup.ts'
import { type HubSupervisor, type HubSupervisorOptions, superviseHub } from './hub-supervisor.ts'
import { hubUrlFor, startHubWorker } from './hub-worker.ts'
import { contextSpaces, writeKubeconfig } from './kubeconfig.ts'
import { reapLeftovers } from './leftovers.ts'
import type { LocalConfig } from './local-config.ts'
import { type LocalEdges, startLocalEdges } from './local-edges.ts'
import { acquireLock } from './lock-file.ts'
import { type Part, stopAll } from './parts.ts'
import { assertPortFree } from './ports.ts'
import { prepareProgramBundles } from './program-bundles.ts'
import { type RunningRelay, startRelayChild } from './relay-child.ts'
import type { StackInfo } from './stack-info.ts'
import { createStackInfoWriter } from './stack-info-writer.ts'
import { checkStoreFolder } from './store-folder.ts'
import { loadOrCreateStoreKey } from './store-key.ts'
import { RELAY_MAIN } from './supervise.ts'

/** The agents' heartbeat period for a staleness threshold: the rule's (a third of it, at most 60 s). */
const agentBeat = (staleAfterSeconds: number) => livenessRule(staleAfterSeconds).heartbeatMs / 1000

export type LocalStack = {
  /** stack.json as first written (the relay pid in the file changes when it is restarted). */
  info: StackInfo
  /**
   * Resolves with a readable reason (log tail included) if the hub dies on its own and cannot be
   * restarted (hub-supervisor.ts).
   */
  failed: Promise<string>
  stop(): Promise<void>
}

export type LocalStackOptions = {
  /** Folder holding wrangler.toml. */
  repoRoot: string
  log: Logger
  /** How long wrangler dev may take to answer /healthz. */
  readyTimeoutMs?: number
  /** The cron ticker's period; default LocalConfig.cronPeriodSeconds (EDGEPLANE_CRON_PERIOD), else 60 s. */
  cronPeriodMs?: number
  /** Aborting stops the start: what was started is stopped and the error is rethrown. */
  signal?: AbortSignal
  /** A Node program and arguments to run instead of wrangler dev (tests). */
  wranglerCommand?: string[]
  /** A Node program to run instead of the relay, given the relay's arguments (tests). */
  relayCommand?: string[]
  /** Timing of the hub's supervision (tests); the restart budget is LocalConfig.hubRestarts. */
  hubSupervision?: Pick<HubSupervisorOptions, 'recoverMs' | 'checkMs' | 'healthyMs'>
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
    await reapLeftovers(paths.stackInfo, log)
    await assertPortFree(cfg.port)
    const admin = await loadOrCreateAdminToken(paths)
    log.info('admin token', { file: paths.adminToken, created: admin.created })
    const tls = await loadOrCreateTls(paths)
    log.info('tls certificate', { file: paths.tlsCert, created: tls.created })
    const { key: storeKey, created: keyCreated } = await loadOrCreateStoreKey(paths.storeKey)
    log.info('store key', { file: paths.storeKey, created: keyCreated })

    // Built (or found in the cache) while dynalite starts and the hub is set up.
    const programsReady = prepareProgramBundles({
      root: opts.repoRoot,
      bundles: cfg.programs !== 'source',
      log,
    })
    checkAborted()
    await checkStoreFolder(paths.dynalite, log)
    const db = await startDynaliteProcess({ path: paths.dynalite, key: storeKey, log })
    parts.push({ name: 'dynalite', stop: () => db.close() })
    log.info('dynalite listening', { endpoint: db.endpoint, path: paths.dynalite, pid: db.pid() })

    await prepareHub({
      ddbEndpoint: db.endpoint,
      tableName: cfg.tableName,
      adminToken: admin.token,
      baseUrl: hubUrlFor(cfg.port),
      credentials: storeKey,
      log,
    })

    const programs = await programsReady
    checkAborted()
    let hubSup: HubSupervisor | undefined
    const hub = await startHubWorker({
      repoRoot: opts.repoRoot,
      port: cfg.port,
      ddbEndpoint: db.endpoint,
      tableName: cfg.tableName,
      logLevel: cfg.logLevel,
      ...(cfg.staleAfterSeconds ? { staleAfterSeconds: cfg.staleAfterSeconds } : {}),
      ...(cfg.holdMaxSeconds !== undefined ? { holdMaxSeconds: cfg.holdMaxSeconds } : {}),
      persistTo: paths.wrangler,
      logFile: paths.wranglerLog,
      envFile: paths.workerEnv,
      storeKey,
      tls: { certPem: tls.certPem, keyPem: tls.keyPem },
      readyTimeoutMs: opts.readyTimeoutMs ?? 120_000,
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.wranglerCommand ? { command: opts.wranglerCommand } : {}),
      ...(programs.workerScript ? { workerScript: programs.workerScript } : {}),
      onSpawn: (w, front) => {
        parts.push({ name: 'front', stop: () => front.close() })
        parts.push({ name: 'wrangler', stop: () => (hubSup ? hubSup.stop() : w.stop()) })
        log.info('wrangler dev starting', { pid: w.pid, port: cfg.port, log: paths.wranglerLog })
      },
    })
    const { wrangler, url: hubUrl } = hub

    checkAborted()
    const ticker = startCronTicker({
      hubUrl,
      periodMs: opts.cronPeriodMs ?? (cfg.cronPeriodSeconds ?? 60) * 1000,
      log,
      ca: tls.certPem,
    })
    parts.push({ name: 'cron', stop: () => ticker.stop() })

    // stack.json is rewritten whenever a supervised child gets a new pid (stack-info-writer.ts).
    let base: Omit<StackInfo, 'relay' | 'edges'> | undefined
    let relay: RunningRelay | undefined
    let edges: LocalEdges | undefined
    const current = (): StackInfo | undefined => {
      if (!base) return undefined
      const relayInfo = relay?.info()
      const w = hubSup?.current() ?? wrangler
      return {
        ...base,
        wrangler: { ...base.wrangler, pid: w.pid, restarts: hubSup?.restarts() ?? 0 },
        ...(relayInfo ? { relay: relayInfo } : {}),
        edges: edges?.info() ?? [],
      }
    }
    const infoFile = createStackInfoWriter(paths.stackInfo, current, log)
    const rewriteInfo = infoFile.rewrite
    hubSup = superviseHub({
      first: wrangler,
      respawn: hub.respawn,
      probe: () => hub.probe(),
      logFile: paths.wranglerLog,
      log,
      ...(cfg.hubRestarts !== undefined ? { maxRestarts: cfg.hubRestarts } : {}),
      ...opts.hubSupervision,
      onRestart: rewriteInfo,
    })
    const hubFailed = hubSup.failed
    if (cfg.relay) {
      const r = await startRelayChild({
        repoRoot: opts.repoRoot,
        hubUrl,
        tokenFile: paths.adminToken,
        ddbEndpoint: db.endpoint,
        table: cfg.tableName,
        caFile: paths.tlsCert,
        logLevel: cfg.logLevel,
        key: storeKey,
        staleAfterSeconds: cfg.staleAfterSeconds,
        logFile: paths.relayLog,
        log,
        command: opts.relayCommand ?? programs.argv(RELAY_MAIN),
        onSpawn: rewriteInfo,
      })
      relay = r
      parts.push({ name: 'relay', stop: () => r.supervisor.stop() })
    }

    if (cfg.edges.length) {
      checkAborted()
      const center = { url: hubUrl, adminToken: admin.token, caPem: tls.certPem }
      edges = await startLocalEdges({
        edges: cfg.edges,
        repoRoot: opts.repoRoot,
        dataDir: paths.root,
        center,
        hub: createRemote({
          baseUrl: hubUrl,
          token: admin.token,
          ca: tls.certPem,
          timeoutMs: 30_000,
        }),
        ddbEndpoint: db.endpoint,
        storeKey,
        tlsDir: dirname(paths.tlsCert),
        pollIntervalSeconds: cfg.pollIntervalSeconds,
        ...(cfg.agentTimeoutSeconds ? { agentTimeoutSeconds: cfg.agentTimeoutSeconds } : {}),
        ...(cfg.staleAfterSeconds ? { heartbeatSeconds: agentBeat(cfg.staleAfterSeconds) } : {}),
        ...(cfg.holdSeconds !== undefined ? { holdSeconds: cfg.holdSeconds } : {}),
        logLevel: cfg.logLevel,
        programs,
        log,
        onChange: rewriteInfo,
        addPart: (part) => parts.push(part),
      })
      log.info('edges started', { edges: edges.info() })
    }

    await writeKubeconfig(paths.kubeconfig, {
      hubUrl,
      adminToken: admin.token,
      caPem: tls.certPem,
      spaces: contextSpaces(cfg.edges.length),
      extra: edges?.contexts ?? [],
    })
    base = {
      pid: process.pid,
      url: hubUrl,
      port: cfg.port,
      dataDir: paths.root,
      kubeconfig: paths.kubeconfig,
      adminTokenFile: paths.adminToken,
      caFile: paths.tlsCert,
      dynalite: {
        endpoint: db.endpoint,
        port: db.port,
        path: paths.dynalite,
        keyFile: paths.storeKey,
      },
      tableName: cfg.tableName,
      wrangler: {
        pid: wrangler.pid,
        port: hub.workerPort,
        inspectorPort: hub.inspectorPort,
        logFile: paths.wranglerLog,
      },
      startedAt: new Date().toISOString(),
    }
    const first = current() as StackInfo
    rewriteInfo()
    await infoFile.flushed()
    parts.push({ name: 'stack.json', stop: () => infoFile.close() })

    let stopping: Promise<void> | undefined
    return {
      info: first,
      failed: hubFailed,
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
