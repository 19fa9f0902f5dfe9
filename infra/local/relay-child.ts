/**
 * How `npm start` runs the watch relay (infra/relay/main.ts) as its supervised child
 * (`startRelayChild`, restarted when it dies, output in relay.log): the command line against this
 * stack's hub and dynalite, its /healthz, /readyz and /metrics on a loopback port picked once per
 * start (recorded in stack.json with its pid, the same after a restart), and its environment — the hub's certificate to trust,
 * the log level, the edges' staleness threshold when the stack sets one (EDGE_STALE_AFTER_SECONDS,
 * as the Worker's) and the store key as AWS credentials (store-key.ts; in the environment, which
 * only its own user can read, never on the command line).
 */
import type { Logger } from '../../lib/log.ts'
import { pickFreePort } from './ports.ts'
import type { StackInfo } from './stack-info.ts'
import type { StoreKey } from './store-key.ts'
import { storeKeyEnv } from './store-key.ts'
import { RELAY_MAIN, type Supervisor, supervise } from './supervise.ts'

export type RelayChild = {
  hubUrl: string
  tokenFile: string
  ddbEndpoint: string
  table: string
  /** A free loopback port (ports.ts), never a fixed one that clashes. */
  healthPort: number
}

/** The relay's command line against this stack's hub and dynalite. */
export function relayArgs(o: RelayChild): string[] {
  return [
    ...['--hub', o.hubUrl, '--token-file', o.tokenFile],
    ...['--ddb-endpoint', o.ddbEndpoint, '--table', o.table],
    ...['--parent-pid', String(process.pid)],
    ...['--health-host', '127.0.0.1', '--health-port', String(o.healthPort)],
  ]
}

/** The relay's environment beside this process's. */
export function relayEnv(
  caFile: string,
  logLevel: string,
  key: StoreKey,
  staleAfterSeconds?: number
): Record<string, string> {
  return {
    NODE_EXTRA_CA_CERTS: caFile,
    LOG_LEVEL: logLevel,
    ...(staleAfterSeconds ? { EDGE_STALE_AFTER_SECONDS: String(staleAfterSeconds) } : {}),
    ...storeKeyEnv(key),
  }
}

export type RelayChildOptions = Omit<RelayChild, 'healthPort'> & {
  repoRoot: string
  /** The hub's certificate, trusted by the relay. */
  caFile: string
  logLevel: string
  key: StoreKey
  staleAfterSeconds?: number | undefined
  logFile: string
  log: Logger
  /** The program and arguments that run the relay (a bundle, or a stand-in in tests). */
  command: string[]
  /** Called at each spawn (a new pid for stack.json). */
  onSpawn(): void
}

export type RunningRelay = {
  supervisor: Supervisor
  /** stack.json's `relay`, undefined while it waits to be restarted. */
  info(): StackInfo['relay']
}

export async function startRelayChild(o: RelayChildOptions): Promise<RunningRelay> {
  const healthPort = await pickFreePort()
  const { hubUrl, tokenFile, ddbEndpoint, table } = o
  const supervisor = supervise({
    name: 'relay',
    main: RELAY_MAIN,
    cwd: o.repoRoot,
    args: relayArgs({ hubUrl, tokenFile, ddbEndpoint, table, healthPort }),
    env: relayEnv(o.caFile, o.logLevel, o.key, o.staleAfterSeconds),
    logFile: o.logFile,
    log: o.log,
    command: o.command,
    onSpawn: o.onSpawn,
  })
  o.log.info('relay started', { pid: supervisor.pid(), log: o.logFile, healthPort })
  return {
    supervisor,
    info: () => {
      const pid = supervisor.pid()
      if (pid === undefined) return undefined
      return { pid, restarts: supervisor.restarts(), logFile: o.logFile, healthPort }
    },
  }
}
