/**
 * The relay's command line and environment: flags win over their environment variables, the hub
 * URL and token file are required, `--delay-ms` is a non-negative integer (default 200). Returns
 * a help request, an error message, or the settings to run with; USAGE is the `--help` text.
 */

export type RelayConfig = {
  hubUrl: string
  tokenFile: string
  ddbEndpoint?: string
  table: string
  region: string
  delayMs: number
}

export type RelayCliRequest =
  | { kind: 'help' }
  | { kind: 'error'; message: string }
  | { kind: 'run'; config: RelayConfig }

export const USAGE = `Usage: node --experimental-strip-types infra/relay/main.ts [options]

Watches the hub's SyncTargets, Locations, EdgePlacements, SinglePlacementSlices and Workspaces
across all spaces and POSTs the reconcile keys they wake to <hub>/hooks/<step>, batched. Watch
cursors are kept in the DynamoDB table (namespace relay-cursors). Logs are JSON lines. SIGTERM or
SIGINT stops the watches, flushes what is pending, saves cursors and exits 0.

Options (environment variable in brackets):
  --hub URL            hub base URL [EDGEPLANE_HUB] (required)
  --token-file PATH    file holding an admin bearer token [EDGEPLANE_TOKEN_FILE] (required)
  --ddb-endpoint URL   DynamoDB endpoint, e.g. dynalite [DDB_ENDPOINT] (default: AWS)
  --table NAME         DynamoDB table [TABLE_NAME] (default edgeplane)
  --region NAME        DynamoDB region [DDB_REGION, AWS_REGION] (default us-east-1)
  --delay-ms N         how long keys are collected before a flush (default 200)
  -h, --help           this text

An https hub with a private CA: set NODE_EXTRA_CA_CERTS=<ca.pem> (Node's fetch takes no CA option).
AWS credentials come from the usual AWS environment; with --ddb-endpoint and none set, local ones.
LOG_LEVEL sets debug | info | warn | error (default info).
`

const FLAGS = ['--hub', '--token-file', '--ddb-endpoint', '--table', '--region', '--delay-ms']

export function parseRelayArgs(
  argv: string[],
  env: Record<string, string | undefined>
): RelayCliRequest {
  if (argv.some((a) => a === '--help' || a === '-h')) return { kind: 'help' }
  const flags = new Map<string, string>()
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? ''
    if (arg === '--') continue
    const eq = arg.indexOf('=')
    const name = eq > 0 ? arg.slice(0, eq) : arg
    if (!FLAGS.includes(name)) return { kind: 'error', message: `unknown argument: ${arg}` }
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i]
    if (value === undefined || value === '')
      return { kind: 'error', message: `${name} needs a value` }
    flags.set(name, value)
  }
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
  const ddbEndpoint = flags.get('--ddb-endpoint') ?? env.DDB_ENDPOINT
  return {
    kind: 'run',
    config: {
      hubUrl,
      tokenFile,
      ...(ddbEndpoint ? { ddbEndpoint } : {}),
      table: flags.get('--table') ?? env.TABLE_NAME ?? 'edgeplane',
      region: flags.get('--region') ?? env.DDB_REGION ?? env.AWS_REGION ?? 'us-east-1',
      delayMs: Number(delayText),
    },
  }
}
