/**
 * The edge agent's command line and environment: flags win over their environment variables;
 * the center URL, mailbox name and token file are required; `--poll-interval` is a positive
 * number of seconds (default 15); `--center-timeout` bounds each request to the center (1 to 120
 * seconds, default 30: a center that accepts and never answers counts as unreachable after it);
 * `--heartbeat-interval` is how often a report carries a heartbeat (1 to 60 seconds, default 60:
 * the center calls an edge stale after three of them, its EDGE_STALE_AFTER_SECONDS);
 * `--hold-seconds` is how long the agent asks the center to hold its desired-state poll (0 to
 * 370, default 300; 0: plain polls every interval; lib/edge-agent/held-loop.ts);
 * the state folder defaults to ./.edgeplane-agent; the built-in
 * namespaces follow lib/apis/builtins.ts (`EDGE_BUILTIN_NAMESPACES`, kube's four by default).
 * Without `--kubeconfig` the agent uses the in-cluster config when it runs in a pod, else the
 * KUBECONFIG default. Outside `--once` it serves /healthz, /readyz and /metrics on the health
 * port (infra/health-flags.ts). Returns a help request, an error message, or the settings; USAGE
 * is the `--help` text.
 */

import { parseBuiltinNamespaces } from '../../lib/apis/builtins.ts'
import { HOLD_DEFAULT_SECONDS, HOLD_LIMIT_SECONDS } from '../../lib/edge/protocol.ts'
import { readFlags } from '../cli-flags.ts'
import { HEALTH_FLAGS, type HealthSettings, healthUsage, readHealth } from '../health-flags.ts'

export type AgentConfig = {
  centerUrl: string
  mailbox: string
  tokenFile: string
  kubeconfig?: string
  context?: string
  pollIntervalMs: number
  /** Limit for each request to the center, its answer and body. */
  centerTimeoutMs: number
  /** How often a report carries a heartbeat. */
  heartbeatMs: number
  /** The hold asked of the center for each desired-state poll, seconds (0: plain polls). */
  holdSeconds: number
  stateDir: string
  builtinNamespaces: string[]
  once: boolean
  centerCa?: string
  /** A supervisor's pid: the agent stops when it is no longer its parent. */
  parentPid?: number
  /** The namespace of the ownership record (record-namespace.ts resolves the default). */
  namespace?: string
  /** Where /healthz, /readyz and /metrics are served (none with `--health-port off`). */
  health?: HealthSettings
}

export type AgentCliRequest =
  | { kind: 'help' }
  | { kind: 'error'; message: string }
  | { kind: 'run'; config: AgentConfig }

export const USAGE = `Usage: npm run edge-agent -- [options]
       node main.mjs [options]   (the bundle \`npm run build\` makes, as the image runs it)

The edgeplane edge agent, one per edge cluster. Every poll it pulls its mailbox's desired state
from the center (GET /edge/v1/mailboxes/<mailbox>/desired, 304 when unchanged), applies it to the
edge cluster by server-side apply (Namespaces and CRDs first), prunes only the objects it created
itself (its record in the edge cluster) that left the desired state, and reports changed
statuses, upsynced objects, problems and a heartbeat (POST .../reports). Between polls it keeps
one held poll open (Prefer: wait=<hold>): a change reaches it within the round trip, not at the
next poll; a center that does not hold gets plain polls. When the center is
unreachable or answers an error it changes nothing and retries with exponential backoff and
jitter (up to 8 x the poll interval), or as long as its Retry-After asks. Logs are JSON lines. SIGTERM or SIGINT stops it after the
current poll. While it runs (not with --once) it serves /healthz (the poll loop moves),
/readyz (the last poll succeeded) and /metrics (Prometheus text) over HTTP.

Options (environment variable in brackets):
  --center URL             center base URL [EDGEPLANE_CENTER] (required)
  --mailbox NAME           the mailbox (workspace) name [EDGEPLANE_MAILBOX] (required)
  --token-file PATH        file holding the edge bearer token, re-read every poll
                           [EDGEPLANE_TOKEN_FILE] (required)
  --kubeconfig PATH        kubeconfig of the edge cluster (default: in-cluster config in a pod,
                           else $KUBECONFIG or ~/.kube/config)
  --context NAME           kubeconfig context (default: the current one)
  --poll-interval SECONDS  seconds between polls [EDGEPLANE_POLL_INTERVAL] (default 15)
  --center-timeout SECONDS limit for each request to the center; a center that answers
                           nothing within it counts as unreachable [EDGEPLANE_CENTER_TIMEOUT]
                           (default 30, 1 to 120)
  --heartbeat-interval SECONDS  seconds between heartbeats, sent even when nothing changed; the
                           center calls the edge stale after three missed (its
                           EDGE_STALE_AFTER_SECONDS, 180 by default)
                           [EDGEPLANE_HEARTBEAT_INTERVAL] (default 60, 1 to 60)
  --hold-seconds SECONDS   how long the center may hold each desired-state poll open while
                           nothing changed; polls of the copy it holds still run every
                           interval [EDGEPLANE_HOLD_SECONDS] (default 300, 0 to 370; 0: plain
                           polls every interval)
  --state-dir PATH         state folder: desired copy, report state
                           [EDGEPLANE_STATE] (default ./.edgeplane-agent)
  --namespace NS           namespace of the ownership record (ConfigMaps
                           edgeplane-agent-owned-<i>) [EDGEPLANE_NAMESPACE] (default: the
                           pod's namespace in-cluster, else edgeplane-system)
  --builtin-namespaces L   comma-separated namespaces the edge cluster owns and the agent never
                           creates, changes or deletes [EDGE_BUILTIN_NAMESPACES]
                           (default default,kube-system,kube-public,kube-node-lease)
  --center-ca PATH         PEM CA to trust for the center [EDGEPLANE_CENTER_CA]
                           (NODE_EXTRA_CA_CERTS works too)
  --parent-pid N           stop when process N is no longer this process's parent
                           (supervisors)
${healthUsage(27)}  --once                   poll once and exit (0 when the poll succeeded, 1 otherwise)
  -h, --help               this text

LOG_LEVEL sets debug | info | warn | error (default info; idle polls log at debug).
`

const VALUE_FLAGS = [
  '--center',
  '--mailbox',
  '--token-file',
  '--kubeconfig',
  '--context',
  '--poll-interval',
  '--center-timeout',
  '--heartbeat-interval',
  '--hold-seconds',
  '--state-dir',
  '--builtin-namespaces',
  '--center-ca',
  '--parent-pid',
  '--namespace',
  ...HEALTH_FLAGS,
]
const BOOL_FLAGS = ['--once']

const MAILBOX = /^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$/

/** Milliseconds from a decimal number of seconds accepted by `ok`, else the error message. */
function millis(text: string, flag: string, ok: (s: number) => boolean, range: string) {
  const s = Number(text)
  if (/^\d+(\.\d+)?$/.test(text) && ok(s)) return Math.round(s * 1000)
  return `${flag} must be ${range}, got ${text}`
}

/**
 * `--poll-interval`, `--center-timeout` and `--heartbeat-interval` in milliseconds and
 * `--hold-seconds`, or the first error message.
 */
function readTimes(v: (flag: string, name: string) => string | undefined) {
  const pollIntervalMs = millis(
    v('--poll-interval', 'EDGEPLANE_POLL_INTERVAL') ?? '15',
    '--poll-interval',
    (s) => s > 0,
    'a positive number of seconds'
  )
  if (typeof pollIntervalMs === 'string') return pollIntervalMs
  const centerTimeoutMs = millis(
    v('--center-timeout', 'EDGEPLANE_CENTER_TIMEOUT') ?? '30',
    '--center-timeout',
    (s) => s >= 1 && s <= 120,
    'a number of seconds from 1 to 120'
  )
  if (typeof centerTimeoutMs === 'string') return centerTimeoutMs
  const heartbeatMs = millis(
    v('--heartbeat-interval', 'EDGEPLANE_HEARTBEAT_INTERVAL') ?? '60',
    '--heartbeat-interval',
    (s) => s >= 1 && s <= 60,
    'a number of seconds from 1 to 60'
  )
  if (typeof heartbeatMs === 'string') return heartbeatMs
  const hold = v('--hold-seconds', 'EDGEPLANE_HOLD_SECONDS') ?? String(HOLD_DEFAULT_SECONDS)
  if (!/^\d{1,3}$/.test(hold) || Number(hold) > HOLD_LIMIT_SECONDS)
    return `--hold-seconds must be a whole number of seconds from 0 to ${HOLD_LIMIT_SECONDS}, got ${hold}`
  return { pollIntervalMs, centerTimeoutMs, heartbeatMs, holdSeconds: Number(hold) }
}

export function parseAgentArgs(
  argv: string[],
  env: Record<string, string | undefined>
): AgentCliRequest {
  if (argv.some((a) => a === '--help' || a === '-h')) return { kind: 'help' }
  const flags = readFlags(argv, {
    values: VALUE_FLAGS,
    bools: BOOL_FLAGS,
    emptyOk: ['--builtin-namespaces'],
  })
  if (typeof flags === 'string') return { kind: 'error', message: flags }
  const v = (flag: string, name?: string) =>
    flags.values.get(flag) ?? (name ? env[name] : undefined)
  const centerUrl = v('--center', 'EDGEPLANE_CENTER')
  const mailbox = v('--mailbox', 'EDGEPLANE_MAILBOX')
  const tokenFile = v('--token-file', 'EDGEPLANE_TOKEN_FILE')
  if (!centerUrl) return { kind: 'error', message: 'missing --center (or EDGEPLANE_CENTER)' }
  if (!/^https?:\/\/[^/]/.test(centerUrl))
    return { kind: 'error', message: `--center must be an http(s) URL, got ${centerUrl}` }
  if (!mailbox) return { kind: 'error', message: 'missing --mailbox (or EDGEPLANE_MAILBOX)' }
  if (!MAILBOX.test(mailbox))
    return { kind: 'error', message: `--mailbox is not a valid name: ${mailbox}` }
  if (!tokenFile)
    return { kind: 'error', message: 'missing --token-file (or EDGEPLANE_TOKEN_FILE)' }
  const times = readTimes(v)
  if (typeof times === 'string') return { kind: 'error', message: times }
  let builtinNamespaces: string[]
  try {
    builtinNamespaces = parseBuiltinNamespaces(v('--builtin-namespaces', 'EDGE_BUILTIN_NAMESPACES'))
  } catch (e) {
    return { kind: 'error', message: e instanceof Error ? e.message : String(e) }
  }
  const kubeconfig = v('--kubeconfig')
  const context = v('--context')
  const centerCa = v('--center-ca', 'EDGEPLANE_CENTER_CA')
  const parentText = v('--parent-pid')
  if (parentText !== undefined && !/^[1-9]\d*$/.test(parentText))
    return { kind: 'error', message: `--parent-pid must be a positive integer, got ${parentText}` }
  const namespace = v('--namespace', 'EDGEPLANE_NAMESPACE') || undefined
  if (namespace !== undefined && !/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(namespace))
    return { kind: 'error', message: `--namespace is not a valid namespace name: ${namespace}` }
  const health = readHealth(
    v('--health-port', 'EDGEPLANE_HEALTH_PORT'),
    v('--health-host', 'EDGEPLANE_HEALTH_HOST')
  )
  if (typeof health === 'string') return { kind: 'error', message: health }
  return {
    kind: 'run',
    config: {
      centerUrl,
      mailbox,
      tokenFile,
      ...(kubeconfig ? { kubeconfig } : {}),
      ...(context ? { context } : {}),
      ...times,
      stateDir: v('--state-dir', 'EDGEPLANE_STATE') || './.edgeplane-agent',
      builtinNamespaces,
      once: flags.bools.has('--once'),
      ...(centerCa ? { centerCa } : {}),
      ...(parentText ? { parentPid: Number(parentText) } : {}),
      ...(namespace ? { namespace } : {}),
      ...health,
    },
  }
}
