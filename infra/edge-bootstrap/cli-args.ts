/**
 * The bootstrap command line (`npm run edge:bootstrap -- ...`): flags win over their environment
 * variables, and the hub URL, admin token file and CA file default to the running local stack's
 * (found as every CLI finds it: infra/stack-discovery.ts). `parseBootstrapArgs` is pure (a help
 * request, an error message, or the flags given; `--out` is relative to the folder the command
 * was typed in, npm's INIT_CWD); `withStackDefaults` fills the gaps from the stack found and says
 * what is still missing. USAGE is the `--help` text.
 */

import { resolve } from 'node:path'
import { EDGE_AGENT_IMAGE } from '../../lib/edge/manifests-image.ts'
import { readFlags } from '../cli-flags.ts'
import { type FoundStack, isStackHub, stackCaFor } from '../stack-discovery.ts'

export type BootstrapFlags = {
  hubUrl?: string
  tokenFile?: string
  caFile?: string
  inventory: string
  syncTarget: string
  out?: string
  centerUrl?: string
  image?: string
  namespace?: string
  pollIntervalSeconds?: number
  /** How long a 503 (mailbox not created yet) is retried, in seconds. */
  waitSeconds: number
  /** Replace a credential the SyncTarget already has (revoking it). */
  rotate?: boolean
}

export type BootstrapConfig = BootstrapFlags & { hubUrl: string; tokenFile: string }

export type BootstrapCliRequest =
  | { kind: 'help' }
  | { kind: 'error'; message: string }
  | { kind: 'run'; flags: BootstrapFlags }

export const USAGE = `Usage: npm run edge:bootstrap -- --inventory PATH --sync-target NAME [options]

Issues the edge credential of one SyncTarget's mailbox (POST <hub>/edge/v1/bootstrap, admin
token) and prints the manifests that run the edge agent on that edge cluster: Namespace,
ServiceAccount, ClusterRole(Binding), Role(Binding), the Secret with the center URL, mailbox and
token, and the agent Deployment. Apply them with \`kubectl apply -f\`. The mailbox name and the
agent image go to stderr. A SyncTarget that already has a credential is refused (exit 3, nothing
written) unless --rotate is given: rotating revokes the previous token, and the agent using it is
cut off until the new manifests are applied at its edge.

Options (environment variable in brackets):
  --inventory PATH      inventory space of the SyncTarget, e.g. root:imw-1 (required)
  --sync-target NAME    the SyncTarget (required)
  --hub URL             hub base URL [EDGEPLANE_HUB] (default: the local stack's, from stack.json)
  --token-file PATH     file holding an admin token [EDGEPLANE_TOKEN_FILE] (default: local stack's)
  --ca-file PATH        PEM CA to trust for the hub, also put in the Secret for the agent
                        (default: the local stack's certificate when --hub is the local stack)
  --out FILE            write the manifests there, mode 0600 (default: stdout)
  --center-url URL      the center as the edge cluster reaches it (default: the hub URL)
  --image REF           agent image (default ${EDGE_AGENT_IMAGE};
                        build it with npm run build and infra/edge-agent/Dockerfile)
  --namespace NAME      namespace of the agent (default edgeplane-system)
  --poll-interval N     seconds between the agent's polls (default 15)
  --wait N              retry for up to N seconds while the mailbox is not created yet (default 30)
  --rotate              replace the SyncTarget's current credential: the previous token stops
                        working at once
  -h, --help            this text

The local stack is found through stack.json in $EDGEPLANE_DATA, else in .edgeplane/ of the
current folder or of the repository. Without --ca-file, an https hub with a private CA needs
NODE_EXTRA_CA_CERTS=<ca.pem>. The output holds the token: keep it as private as the admin token.
Exit codes: 0 done, 1 the hub refused or could not be reached, 2 bad arguments, 3 the SyncTarget
already has a credential (give --rotate to replace it).
`

const FLAGS = [
  '--hub',
  '--token-file',
  '--ca-file',
  '--inventory',
  '--sync-target',
  '--out',
  '--center-url',
  '--image',
  '--namespace',
  '--poll-interval',
  '--wait',
]

const isHttpUrl = (u: string) => /^https?:\/\/[^/]/.test(u)

function integer(text: string | undefined, name: string, min: number): number | string | undefined {
  if (text === undefined) return undefined
  if (!/^\d+$/.test(text) || Number(text) < min)
    return `${name} must be an integer of at least ${min}, got ${text}`
  return Number(text)
}

export function parseBootstrapArgs(
  argv: string[],
  env: Record<string, string | undefined>,
  cwd: string
): BootstrapCliRequest {
  if (argv.some((a) => a === '--help' || a === '-h')) return { kind: 'help' }
  const read = readFlags(argv, { values: FLAGS, bools: ['--rotate'] })
  if (typeof read === 'string') return { kind: 'error', message: read }
  const f = read.values
  const inventory = f.get('--inventory')
  const syncTarget = f.get('--sync-target')
  if (!inventory) return { kind: 'error', message: 'missing --inventory' }
  if (!syncTarget) return { kind: 'error', message: 'missing --sync-target' }
  const hubUrl = f.get('--hub') ?? env.EDGEPLANE_HUB
  if (hubUrl !== undefined && !isHttpUrl(hubUrl))
    return { kind: 'error', message: `--hub must be an http(s) URL, got ${hubUrl}` }
  const centerUrl = f.get('--center-url')
  if (centerUrl !== undefined && !isHttpUrl(centerUrl))
    return { kind: 'error', message: `--center-url must be an http(s) URL, got ${centerUrl}` }
  const poll = integer(f.get('--poll-interval'), '--poll-interval', 1)
  const wait = integer(f.get('--wait'), '--wait', 0)
  if (typeof poll === 'string') return { kind: 'error', message: poll }
  if (typeof wait === 'string') return { kind: 'error', message: wait }
  const out = f.get('--out')
  const optional = {
    hubUrl: hubUrl?.replace(/\/+$/, ''),
    tokenFile: f.get('--token-file') ?? env.EDGEPLANE_TOKEN_FILE,
    caFile: f.get('--ca-file'),
    out: out === undefined ? undefined : resolve(env.INIT_CWD || cwd, out),
    centerUrl,
    image: f.get('--image'),
    namespace: f.get('--namespace'),
    pollIntervalSeconds: poll,
    rotate: read.bools.has('--rotate') ? true : undefined,
  }
  const flags: BootstrapFlags = { inventory, syncTarget, waitSeconds: wait ?? 30 }
  for (const [k, v] of Object.entries(optional))
    if (v !== undefined) Object.assign(flags, { [k]: v })
  return { kind: 'run', flags }
}

/**
 * Fills the hub URL, token file and (for the stack's own hub) CA file from the running local stack
 * found; an error message when the hub or the token file is still unknown.
 */
export function withStackDefaults(
  flags: BootstrapFlags,
  found: FoundStack
): BootstrapConfig | string {
  const stack = found.info
  const hubUrl = flags.hubUrl ?? stack?.url.replace(/\/+$/, '')
  if (!hubUrl)
    return `missing --hub (or EDGEPLANE_HUB), and no running local stack in ${found.dataDir}`
  const sameHub = isStackHub(hubUrl, stack)
  const tokenFile = flags.tokenFile ?? (sameHub ? stack?.adminTokenFile : undefined)
  if (!tokenFile) return 'missing --token-file (or EDGEPLANE_TOKEN_FILE)'
  const caFile = flags.caFile ?? stackCaFor(hubUrl, stack)
  return { ...flags, hubUrl, tokenFile, ...(caFile ? { caFile } : {}) }
}
