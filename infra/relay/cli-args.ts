/**
 * The relay's command line and environment: flags win over their environment variables, the hub
 * URL and token file are required, `--delay-ms` is a non-negative integer (default 200),
 * `--parent-pid` a positive one (a supervisor's pid: the relay stops when it is no longer its
 * parent), `--hub-timeout` bounds each hook call (seconds, 1 to 600, default 30; each read of the
 * hub gets a third of it), `--stale-after` is the edges' staleness threshold the Worker is
 * configured with (its EDGE_STALE_AFTER_SECONDS, 3 to 86400 seconds; unset, the default 180), and
 * the health server's flags are infra/health-flags.ts's. Returns a
 * help request, an error message, or the settings to run with; USAGE is the `--help` text.
 */
import { readFlags } from '../cli-flags.ts'
import { HEALTH_FLAGS, type HealthSettings, healthUsage, readHealth } from '../health-flags.ts'

export type RelayConfig = {
  hubUrl: string
  tokenFile: string
  ddbEndpoint?: string
  table: string
  region: string
  delayMs: number
  /** Limit for each hook call, its answer and body; reads get a third of it. */
  hubTimeoutMs: number
  /** The edges' staleness threshold, as the Worker's (absent: the default). */
  staleAfterSeconds?: number
  parentPid?: number
  /** Where /healthz, /readyz and /metrics are served (none with `--health-port off`). */
  health?: HealthSettings
}

export type RelayCliRequest =
  | { kind: 'help' }
  | { kind: 'error'; message: string }
  | { kind: 'run'; config: RelayConfig }

export const USAGE = `Usage: node --experimental-strip-types infra/relay/main.ts [options]
       node main.mjs [options]   (the bundle \`npm run build\` makes, as the image runs it)

Watches the hub across all spaces and POSTs the reconcile keys the changes wake to
<hub>/hooks/<step> (mailbox, where, translate, summarize, rollout), batched; keys a hook reports
failed are sent again with backoff, and requeueAfterMs is honoured. Always watched: SyncTargets,
Locations, EdgePlacements, Rollouts, SinglePlacementSlices, Workspaces and CRDs; while some space holds a slice, also
every resource the hub's discovery lists that a placement can select, and each CRD's resource in
the spaces holding slices. Watch cursors are kept in the DynamoDB table (namespace
relay-cursors). Logs are JSON lines. SIGTERM or SIGINT stops the watches, flushes what is
pending, saves cursors and exits 0. It serves /healthz (its watch loops run), /readyz (its last
hook call was answered) and /metrics (Prometheus text) over HTTP.

Options (environment variable in brackets):
  --hub URL            hub base URL [EDGEPLANE_HUB] (required)
  --token-file PATH    file holding an admin bearer token [EDGEPLANE_TOKEN_FILE] (required)
  --ddb-endpoint URL   DynamoDB endpoint, e.g. dynalite [DDB_ENDPOINT] (default: AWS)
  --table NAME         DynamoDB table [TABLE_NAME] (default edgeplane)
  --region NAME        DynamoDB region [DDB_REGION, AWS_REGION] (default us-east-1)
  --delay-ms N         how long keys are collected before a flush (default 200; a key
                       that finds its step quiet is flushed at once)
  --hub-timeout SECS   limit in seconds for each hook call: one the hub does not answer within
                       it fails and is sent again with backoff; each read (discovery, a list
                       page) gets a third of it; watches are not bounded by it
                       [EDGEPLANE_HUB_TIMEOUT] (default 30, 1 to 600)
  --stale-after SECS   the edges' staleness threshold, as the Worker is configured with it: a
                       SyncTarget's heartbeat after this much silence wakes its placements'
                       summaries [EDGE_STALE_AFTER_SECONDS] (default 180, 3 to 86400)
  --parent-pid N       stop when process N is no longer this process's parent (supervisors)
${healthUsage(23)}  -h, --help           this text

An https hub with a private CA: set NODE_EXTRA_CA_CERTS=<ca.pem> (Node's fetch takes no CA option).
AWS credentials come from the usual AWS environment; with --ddb-endpoint and none set, local ones.
LOG_LEVEL sets debug | info | warn | error (default info).
`

const FLAGS = [
  '--hub',
  '--token-file',
  '--ddb-endpoint',
  '--table',
  '--region',
  '--delay-ms',
  '--hub-timeout',
  '--stale-after',
  '--parent-pid',
  ...HEALTH_FLAGS,
]

/** `--hub-timeout` in seconds, or the error message. */
function hubTimeout(text: string): number | string {
  const s = Number(text)
  if (/^\d+(\.\d+)?$/.test(text) && s >= 1 && s <= 600) return s
  return `--hub-timeout must be a number of seconds from 1 to 600, got ${text}`
}

/** `--stale-after` in seconds (undefined: not given), or the error message. */
function staleAfter(text: string | undefined): number | undefined | string {
  if (text === undefined) return undefined
  const s = Number(text)
  if (/^\d+$/.test(text) && s >= 3 && s <= 86_400) return s
  return `--stale-after must be a whole number of seconds from 3 to 86400, got ${text}`
}

export function parseRelayArgs(
  argv: string[],
  env: Record<string, string | undefined>
): RelayCliRequest {
  if (argv.some((a) => a === '--help' || a === '-h')) return { kind: 'help' }
  const read = readFlags(argv, { values: FLAGS })
  if (typeof read === 'string') return { kind: 'error', message: read }
  const flags = read.values
  const hubUrl = flags.get('--hub') ?? env.EDGEPLANE_HUB
  const tokenFile = flags.get('--token-file') ?? env.EDGEPLANE_TOKEN_FILE
  if (!hubUrl) return { kind: 'error', message: 'missing --hub (or EDGEPLANE_HUB)' }
  if (!/^https?:\/\/[^/]/.test(hubUrl))
    return { kind: 'error', message: `--hub must be an http(s) URL, got ${hubUrl}` }
  if (!tokenFile)
    return { kind: 'error', message: 'missing --token-file (or EDGEPLANE_TOKEN_FILE)' }
  const delayText = flags.get('--delay-ms') ?? '200'
  if (!/^\d+$/.test(delayText))
    return { kind: 'error', message: `--delay-ms must be a non-negative integer, got ${delayText}` }
  const timeoutS = hubTimeout(flags.get('--hub-timeout') ?? (env.EDGEPLANE_HUB_TIMEOUT || '30'))
  if (typeof timeoutS === 'string') return { kind: 'error', message: timeoutS }
  const stale = staleAfter(flags.get('--stale-after') ?? env.EDGE_STALE_AFTER_SECONDS)
  if (typeof stale === 'string') return { kind: 'error', message: stale }
  const parentText = flags.get('--parent-pid')
  if (parentText !== undefined && !/^[1-9]\d*$/.test(parentText))
    return { kind: 'error', message: `--parent-pid must be a positive integer, got ${parentText}` }
  const ddbEndpoint = flags.get('--ddb-endpoint') ?? env.DDB_ENDPOINT
  const health = readHealth(
    flags.get('--health-port') ?? env.EDGEPLANE_HEALTH_PORT,
    flags.get('--health-host') ?? env.EDGEPLANE_HEALTH_HOST
  )
  if (typeof health === 'string') return { kind: 'error', message: health }
  return {
    kind: 'run',
    config: {
      hubUrl,
      tokenFile,
      ...(ddbEndpoint ? { ddbEndpoint } : {}),
      table: flags.get('--table') ?? env.TABLE_NAME ?? 'edgeplane',
      region: flags.get('--region') ?? env.DDB_REGION ?? env.AWS_REGION ?? 'us-east-1',
      delayMs: Number(delayText),
      hubTimeoutMs: Math.round(timeoutS * 1000),
      ...(stale !== undefined ? { staleAfterSeconds: stale } : {}),
      ...(parentText ? { parentPid: Number(parentText) } : {}),
      ...health,
    },
  }
}
