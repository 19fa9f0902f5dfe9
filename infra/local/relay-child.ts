/**
 * How `npm start` runs the watch relay (infra/relay/main.ts) as its child: the command line
 * against this stack's hub and dynalite, and its environment — the hub's certificate to trust,
 * the log level, the edges' staleness threshold when the stack sets one (EDGE_STALE_AFTER_SECONDS,
 * as the Worker's) and the store key as AWS credentials (store-key.ts; in the environment, which
 * only its own user can read, never on the command line).
 */
import type { StoreKey } from './store-key.ts'
import { storeKeyEnv } from './store-key.ts'

/** The relay's command line against this stack's hub and dynalite. */
export function relayArgs(
  hubUrl: string,
  tokenFile: string,
  ddbEndpoint: string,
  table: string
): string[] {
  return [
    '--hub',
    hubUrl,
    '--token-file',
    tokenFile,
    '--ddb-endpoint',
    ddbEndpoint,
    '--table',
    table,
    '--parent-pid',
    String(process.pid),
    // Its /healthz and /metrics on a free loopback port (logged), never a fixed one that clashes.
    ...['--health-host', '127.0.0.1', '--health-port', '0'],
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
