/**
 * The hub Worker under `wrangler dev` behind its front, started and waited for: picks a free
 * loopback port for wrangler (plain http) and one for its inspector, starts the front
 * (hub-front.ts: https on the given port with the stack's certificate, where the raw request
 * checks run) and wrangler, telling wrangler that its public origin is the front's https URL (so
 * URLs the Worker builds from its request — a Workspace's status.URL — name the front), and
 * resolves once /healthz answers 200 through the front (trusting the hub's certificate). Gives up —
 * stopping wrangler and the front — when wrangler exits, its build fails, the start is aborted or
 * the deadline passes, with the tail of its log. `respawn()` starts another wrangler on the same
 * ports (the front keeps its upstream) and waits for it likewise, for hub-supervisor.ts; `probe()`
 * asks wrangler's own /healthz directly. The two loopback ports are picked free and released before
 * wrangler binds them, so another process may take one meanwhile (any outgoing connection can get
 * it as its local port; a fresh-clone CI run saw it): when wrangler then reports "Address already
 * in use", the start picks new ports and tries again, up to PORT_ATTEMPTS times. Meanwhile the
 * other process may answer /healthz on that port itself (another stack's Worker did, in a
 * fresh-clone CI run, and the stack registered its edges there: 401): so every start gives
 * wrangler a random instance label (INSTANCE_ID) and only an answer carrying it counts as healthy.
 * With `envFile`, every start also makes a random front secret: the front sends it with each
 * request it forwards and the Worker refuses requests without it (functions/front-gate.ts), so
 * wrangler's own ports answer nothing the front did not check; the secret and the store key (the
 * Worker's AWS credentials for the local dynalite) are written to that file (mode 0600), which
 * wrangler reads with `--env-file`, and `probe()` sends the secret too.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { FRONT_HEADER, FRONT_SECRET_VAR } from '../../functions/front-gate.ts'
import { writePrivateFile } from './data-dir.ts'
import { answersHealthy, waitHealthy } from './health.ts'
import { type HubFront, startHubFront } from './hub-front.ts'
import { withLogTail } from './log-tail.ts'
import { pickFreePort } from './ports.ts'
import { type StoreKey, storeKeyEnv } from './store-key.ts'
import { startWrangler, type WranglerProcess } from './wrangler-process.ts'

export type HubWorkerOptions = {
  repoRoot: string
  /** Where the front listens (EDGEPLANE_PORT). */
  port: number
  ddbEndpoint: string
  tableName: string
  logLevel: string
  /** The Worker's EDGE_STALE_AFTER_SECONDS (absent: its default). */
  staleAfterSeconds?: number
  /** The Worker's EDGE_HOLD_MAX_SECONDS (absent: its default). */
  holdMaxSeconds?: number
  persistTo: string
  logFile: string
  tls: { certPem: string; keyPem: string }
  readyTimeoutMs: number
  /**
   * The Worker's private env file (data-dir.ts): written with the front secret and the store key
   * on every start; absent: no front secret and no store key (tests with a stand-in).
   */
  envFile?: string
  /** The local store's key, for the Worker (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY). */
  storeKey?: StoreKey
  /** The built Worker to run (`wrangler dev --no-bundle`); absent: wrangler bundles the sources. */
  workerScript?: string
  signal?: AbortSignal
  /**
   * A Node program and arguments to run instead of wrangler dev (tests); it finds the port to
   * serve plain http on in EDGEPLANE_WORKER_PORT.
   */
  command?: string[]
  /** Called as soon as the front listens and wrangler runs, before it is healthy. */
  onSpawn?: (w: WranglerProcess, front: HubFront) => void
}

/** The hub's URL for a port (always https on loopback). */
export function hubUrlFor(port: number): string {
  return `https://127.0.0.1:${port}`
}

export type HubWorker = {
  url: string
  inspectorPort: number
  /** wrangler's own port (plain http on loopback, behind the front). */
  workerPort: number
  wrangler: WranglerProcess
  front: HubFront
  /**
   * Starts a new wrangler on the same ports (the previous one must be stopped) and resolves once
   * it is healthy; otherwise stops it and throws with its log tail. `gaveUp` may end the wait.
   */
  respawn(gaveUp?: () => string | undefined): Promise<WranglerProcess>
  /** Whether wrangler's /healthz answers 200, with this start's label, within `timeoutMs`. */
  probe(timeoutMs?: number): Promise<boolean>
}

function abortReason(signal: AbortSignal | undefined): string | undefined {
  if (!signal?.aborted) return undefined
  return signal.reason instanceof Error ? signal.reason.message : 'aborted'
}

/** The Worker's secrets as `KEY=value` lines (hex and key ids only: nothing needs quoting). */
async function writeWorkerEnv(
  path: string,
  secret: string | undefined,
  key: StoreKey | undefined
): Promise<void> {
  const vars = {
    ...(secret ? { [FRONT_SECRET_VAR]: secret } : {}),
    ...(key ? storeKeyEnv(key) : {}),
  }
  await writePrivateFile(
    path,
    Object.entries(vars)
      .map(([k, v]) => `${k}=${v}\n`)
      .join('')
  )
}

/** Starts with freshly picked loopback ports this many times at most. */
export const PORT_ATTEMPTS = 3
const PORT_TAKEN = /Address already in use/

export async function startHubWorker(opts: HubWorkerOptions): Promise<HubWorker> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnFreshPorts(opts)
    } catch (e) {
      const taken = e instanceof Error && PORT_TAKEN.test(e.message)
      if (!taken || attempt >= PORT_ATTEMPTS || opts.signal?.aborted) throw e
    }
  }
}

async function startOnFreshPorts(opts: HubWorkerOptions): Promise<HubWorker> {
  const url = hubUrlFor(opts.port)
  const workerPort = await pickFreePort()
  const inspectorPort = await pickFreePort()
  const instance = randomUUID()
  const secret = opts.envFile ? randomBytes(32).toString('hex') : undefined
  if (opts.envFile) await writeWorkerEnv(opts.envFile, secret, opts.storeKey)
  const front = await startHubFront({
    port: opts.port,
    tls: opts.tls,
    upstream: { host: '127.0.0.1', port: workerPort },
    ...(secret ? { secret } : {}),
  })
  const spawnWrangler = () =>
    startWrangler({
      cwd: opts.repoRoot,
      port: workerPort,
      inspectorPort,
      origin: url,
      persistTo: opts.persistTo,
      logFile: opts.logFile,
      vars: {
        DDB_ENDPOINT: opts.ddbEndpoint,
        TABLE_NAME: opts.tableName,
        LOG_LEVEL: opts.logLevel,
        INSTANCE_ID: instance,
        ...(opts.staleAfterSeconds
          ? { EDGE_STALE_AFTER_SECONDS: String(opts.staleAfterSeconds) }
          : {}),
        ...(opts.holdMaxSeconds !== undefined
          ? { EDGE_HOLD_MAX_SECONDS: String(opts.holdMaxSeconds) }
          : {}),
      },
      ...(opts.envFile ? { envFile: opts.envFile } : {}),
      ...(opts.command ? { command: opts.command } : {}),
      ...(opts.workerScript ? { script: opts.workerScript } : {}),
    })
  /** Waits for `w` to answer through the front; stops it and throws with the log tail if not. */
  const untilHealthy = async (w: WranglerProcess, gaveUp: () => string | undefined) => {
    try {
      await waitHealthy(`${url}/healthz`, {
        timeoutMs: opts.readyTimeoutMs,
        ca: opts.tls.certPem,
        instance,
        gaveUp: () => w.exitReason() ?? w.startupProblem() ?? gaveUp(),
      })
    } catch (e) {
      await w.stop()
      throw new Error(await withLogTail((e as Error).message, opts.logFile))
    }
  }
  let wrangler: WranglerProcess
  try {
    wrangler = spawnWrangler()
  } catch (e) {
    await front.close()
    throw e
  }
  opts.onSpawn?.(wrangler, front)
  try {
    await untilHealthy(wrangler, () => abortReason(opts.signal))
  } catch (e) {
    await front.close()
    throw e
  }
  const respawn = async (gaveUp: () => string | undefined = () => undefined) => {
    const w = spawnWrangler()
    await untilHealthy(w, gaveUp)
    return w
  }
  const probe = (timeoutMs = 5000) =>
    answersHealthy(`http://127.0.0.1:${workerPort}/healthz`, {
      instance,
      timeoutMs,
      ...(secret ? { headers: { [FRONT_HEADER]: secret } } : {}),
    })
  return { url, inspectorPort, workerPort, wrangler, front, respawn, probe }
}
