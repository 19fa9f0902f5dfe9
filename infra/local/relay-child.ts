/**
 * How `npm start` runs the watch relay (infra/relay/main.ts) as its child: the command line
 * against this stack's hub and dynalite, its /healthz, /readyz and /metrics on a loopback port
 * picked once per start (recorded in stack.json, the same after a restart), and its environment — the hub's certificate to trust,
 * the log level, the edges' staleness threshold when the stack sets one (EDGE_STALE_AFTER_SECONDS,
 * as the Worker's) and the store key as AWS credentials (store-key.ts; in the environment, which
 * only its own user can read, never on the command line).
 */
import type { StoreKey } from './store-key.ts'
import { storeKeyEnv } from './store-key.ts'

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
