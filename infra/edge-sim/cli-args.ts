/**
 * The simulated edge's command line and environment: flags win over their environment variables;
 * the edge name, the DynamoDB endpoint and the token file are required; `--port` is a port number
 * (0 = any free one), `--parent-pid` a positive integer (a supervisor's pid: the edge stops when
 * it is no longer its parent). Returns a help request, an error message or the settings; USAGE is
 * the `--help` text.
 */
import { type Fault, parseFaults } from '../../lib/edge-sim/faults.ts'
import { isDnsLabel } from '../../lib/kube/names.ts'
import { readFlags } from '../cli-flags.ts'

export type EdgeSimConfig = {
  name: string
  ddbEndpoint: string
  table?: string
  region: string
  host: string
  port: number
  certDir?: string
  tokenFile: string
  parentPid?: number
  /** The failures this edge is told to have (none by default). */
  faults: Fault[]
}

export type EdgeSimCliRequest =
  | { kind: 'help' }
  | { kind: 'error'; message: string }
  | { kind: 'run'; config: EdgeSimConfig }

export const USAGE = `Usage: node --experimental-strip-types infra/edge-sim/main.ts --name NAME --ddb-endpoint URL --token-file PATH [options]

Runs one simulated edge cluster: a kube-compatible API server (the hub code with kube's
API-server defaults) over its own DynamoDB table, plus a workload simulator that does what kube's
controllers and kubelet would (ReplicaSets and Pods for Deployments, Running and Ready pods, Jobs
that complete, statuses with observedGeneration, Service clusterIPs). The cluster has the
namespaces default, kube-system, kube-public and kube-node-lease and one node, <name>-node.

When the API answers, exactly one line is written to stdout (everything else is JSON log lines
on stderr):
  {"ready":true,"name":"<name>","url":"https://127.0.0.1:<port>","table":"<table>","pid":<pid>}
SIGTERM or SIGINT stops it (exit 0); bad arguments exit 2, a failed start exits 1.

Options (environment variable in brackets):
  --name NAME          the edge cluster's name, a DNS label [EDGE_NAME] (required)
  --ddb-endpoint URL   DynamoDB endpoint, e.g. dynalite [DDB_ENDPOINT] (required)
  --token-file PATH    file holding the admin bearer token; created with a new random token
                       (mode 0600) when missing [EDGE_TOKEN_FILE] (required)
  --cert-dir DIR       folder with cert.pem and key.pem (e.g. the local stack's tls/): serve
                       https; without it the API is plain http, where kubectl sends no token
                       [EDGE_CERT_DIR]
  --table NAME         DynamoDB table, created when missing (default edge-<name>) [EDGE_TABLE]
  --region NAME        DynamoDB region [DDB_REGION, AWS_REGION] (default us-east-1)
  --host ADDR          listen address (default 127.0.0.1)
  --port N             listen port, 0 for any free one (default 0) [EDGE_PORT]
  --parent-pid N       stop when process N is no longer this process's parent (supervisors)
  --faults LIST        failures to simulate, comma-separated, each optionally limited to the
                       images matching a glob: image-pull[@GLOB] (ErrImagePull/ImagePullBackOff),
                       crash-loop[@GLOB] (CrashLoopBackOff; a pod with restartPolicy Never fails),
                       job-fail[@GLOB] (Job pods fail, the Job past its backoffLimit); e.g.
                       crash-loop@*:bad,job-fail (default none) [EDGE_FAULTS]
  -h, --help           this text

LOG_LEVEL sets debug | info | warn | error (default info).
`

const FLAGS = [
  '--name',
  '--ddb-endpoint',
  '--token-file',
  '--cert-dir',
  '--table',
  '--region',
  '--host',
  '--port',
  '--parent-pid',
  '--faults',
]

export function parseEdgeSimArgs(
  argv: string[],
  env: Record<string, string | undefined>
): EdgeSimCliRequest {
  if (argv.some((a) => a === '--help' || a === '-h')) return { kind: 'help' }
  const read = readFlags(argv, { values: FLAGS })
  if (typeof read === 'string') return { kind: 'error', message: read }
  const flags = read.values
  const get = (flag: string, envName?: string) =>
    flags.get(flag) ?? (envName ? env[envName] || undefined : undefined)
  const name = get('--name', 'EDGE_NAME')
  const ddbEndpoint = get('--ddb-endpoint', 'DDB_ENDPOINT')
  const tokenFile = get('--token-file', 'EDGE_TOKEN_FILE')
  if (!name) return { kind: 'error', message: 'missing --name (or EDGE_NAME)' }
  if (!isDnsLabel(name))
    return { kind: 'error', message: `--name must be a DNS label (a-z, 0-9, '-'), got ${name}` }
  if (!ddbEndpoint) return { kind: 'error', message: 'missing --ddb-endpoint (or DDB_ENDPOINT)' }
  if (!/^https?:\/\/[^/]/.test(ddbEndpoint))
    return { kind: 'error', message: `--ddb-endpoint must be an http(s) URL, got ${ddbEndpoint}` }
  if (!tokenFile) return { kind: 'error', message: 'missing --token-file (or EDGE_TOKEN_FILE)' }
  const portText = get('--port', 'EDGE_PORT') ?? '0'
  if (!/^\d+$/.test(portText) || Number(portText) > 65535)
    return { kind: 'error', message: `--port must be a port number (0-65535), got ${portText}` }
  const parentText = flags.get('--parent-pid')
  if (parentText !== undefined && !/^[1-9]\d*$/.test(parentText))
    return { kind: 'error', message: `--parent-pid must be a positive integer, got ${parentText}` }
  const faults = parseFaults(get('--faults', 'EDGE_FAULTS'))
  if ('error' in faults) return { kind: 'error', message: `--faults: ${faults.error}` }
  const certDir = get('--cert-dir', 'EDGE_CERT_DIR')
  const table = get('--table', 'EDGE_TABLE')
  return {
    kind: 'run',
    config: {
      name,
      ddbEndpoint,
      tokenFile,
      region: flags.get('--region') ?? env.DDB_REGION ?? env.AWS_REGION ?? 'us-east-1',
      host: flags.get('--host') ?? '127.0.0.1',
      port: Number(portText),
      faults,
      ...(certDir ? { certDir } : {}),
      ...(table ? { table } : {}),
      ...(parentText ? { parentPid: Number(parentText) } : {}),
    },
  }
}
