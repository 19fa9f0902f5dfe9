/**
 * The token command line (`npm run token -- <command> ...`): `issue`, `list` and `revoke`, each
 * with the connection flags of connection.ts. `parseTokenArgs` is pure: a help request, an error
 * message, or the command with its flags (comma-separated lists for `--space` and `--group`;
 * `--expires` as a duration, duration.ts). A relative file path is the user's: resolved against the
 * directory the command was typed in (npm's INIT_CWD; `npm run` itself runs in the package root),
 * else the working directory. USAGE is the `--help` text.
 */
import { resolve } from 'node:path'
import { readFlags } from '../cli-flags.ts'
import { parseDuration } from './duration.ts'

export type ConnectionFlags = {
  hubUrl?: string
  tokenFile?: string
  caFile?: string
  kubeconfig?: string
  context?: string
}

export type IssueFlags = {
  name: string
  user?: string
  spaces: string[]
  groups: string[]
  admin: boolean
  expirationSeconds?: number
  kubeconfigOut?: string
}

export type TokenCommand =
  | { kind: 'issue'; issue: IssueFlags; connection: ConnectionFlags }
  | { kind: 'list'; connection: ConnectionFlags }
  | { kind: 'revoke'; names: string[]; connection: ConnectionFlags }

export type TokenCliRequest =
  | { kind: 'help' }
  | { kind: 'error'; message: string }
  | { kind: 'run'; command: TokenCommand }

export const USAGE = `Usage: npm run token -- <command> [options]

Issues, lists and revokes the hub's bearer tokens (the Token resource of auth.edgeplane.io in
the root space; an admin token is needed). A token is shown once, when it is issued: the hub
keeps only its hash. Revoking takes effect at once in the hub process that answers and within
10 seconds everywhere.

Commands:
  issue --name NAME --space PATHS [options]   issue a token; prints it on stdout
      --name NAME          the Token's name (a DNS subdomain; also the user name by default)
      --space PATHS        comma-separated space paths (root:team-a) or subtrees (root:team-a:*)
      --user NAME          the user name it authenticates as (default: --name)
      --group NAMES        comma-separated groups (kubectl auth whoami shows them)
      --admin              an admin token: every space and the token API (no --space)
      --expires DURATION   lifetime, e.g. 720h, 30d, 1h30m: 10m to 365d (default 30d)
      --kubeconfig-out FILE  also write a kubeconfig for the token there (mode 0600)
  list                                        list the tokens: user, type, spaces, expiry
  revoke NAME [NAME...]                       delete tokens; their holders get 401

Connection (environment variable in brackets; by default the running local stack's):
  --hub URL            hub base URL [EDGEPLANE_HUB]
  --token-file PATH    file holding an admin token [EDGEPLANE_TOKEN_FILE]
  --ca-file PATH       PEM CA to trust for the hub
  --kubeconfig FILE    take the hub URL, token and CA from a kubeconfig instead
  --context NAME       the kubeconfig context (default: its current context)
  -h, --help           this text

The local stack is found through stack.json in $EDGEPLANE_DATA, else in .edgeplane/ of the
current folder or of the repository.
`

const CONNECTION = ['--hub', '--token-file', '--ca-file', '--kubeconfig', '--context']
const ISSUE = ['--name', '--space', '--user', '--group', '--expires', '--kubeconfig-out']

const isHttpUrl = (u: string) => /^https?:\/\/[^/]/.test(u)
const list = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')

type PathOf = (p: string | undefined) => string | undefined

function connectionOf(
  f: Map<string, string>,
  env: Record<string, string | undefined>,
  path: PathOf
): ConnectionFlags | string {
  const hubUrl = f.get('--hub') ?? env.EDGEPLANE_HUB
  if (hubUrl !== undefined && !isHttpUrl(hubUrl))
    return `--hub must be an http(s) URL, got ${hubUrl}`
  const out: ConnectionFlags = {}
  const given = {
    hubUrl: hubUrl?.replace(/\/+$/, ''),
    tokenFile: path(f.get('--token-file') ?? env.EDGEPLANE_TOKEN_FILE),
    caFile: path(f.get('--ca-file')),
    kubeconfig: path(f.get('--kubeconfig')),
    context: f.get('--context'),
  }
  for (const [k, v] of Object.entries(given)) if (v) Object.assign(out, { [k]: v })
  return out
}

function issueOf(f: Map<string, string>, admin: boolean, path: PathOf): IssueFlags | string {
  const name = f.get('--name')
  if (!name) return 'issue needs --name'
  const spaces = list(f.get('--space'))
  if (!admin && spaces.length === 0) return 'issue needs --space (or --admin)'
  if (admin && spaces.length > 0) return '--admin tokens reach every space: leave out --space'
  const out: IssueFlags = { name, spaces, groups: list(f.get('--group')), admin }
  const expires = f.get('--expires')
  if (expires !== undefined) {
    const seconds = parseDuration(expires)
    if (typeof seconds === 'string') return `--expires: ${seconds}`
    out.expirationSeconds = seconds
  }
  const user = f.get('--user')
  if (user) out.user = user
  const kubeconfigOut = path(f.get('--kubeconfig-out'))
  if (kubeconfigOut) out.kubeconfigOut = kubeconfigOut
  return out
}

export function parseTokenArgs(
  argv: string[],
  env: Record<string, string | undefined>,
  cwd: string = process.cwd()
): TokenCliRequest {
  const path: PathOf = (p) => (p ? resolve(env.INIT_CWD || cwd, p) : p)
  const args = argv.filter((a) => a !== '--')
  if (args.length === 0 || args.some((a) => a === '--help' || a === '-h' || a === 'help'))
    return { kind: 'help' }
  const [command = '', ...rest] = args
  const names: string[] = []
  while (command === 'revoke' && rest[0] !== undefined && !rest[0].startsWith('-'))
    names.push(rest.shift() as string)
  const values = command === 'issue' ? [...CONNECTION, ...ISSUE] : CONNECTION
  const read = readFlags(rest, { values, bools: command === 'issue' ? ['--admin'] : [] })
  if (!['issue', 'list', 'revoke'].includes(command))
    return { kind: 'error', message: `unknown command: ${command} (issue, list or revoke)` }
  if (typeof read === 'string') return { kind: 'error', message: read }
  const connection = connectionOf(read.values, env, path)
  if (typeof connection === 'string') return { kind: 'error', message: connection }
  if (command === 'list') return { kind: 'run', command: { kind: 'list', connection } }
  if (command === 'revoke') {
    if (names.length === 0) return { kind: 'error', message: 'revoke needs at least one NAME' }
    return { kind: 'run', command: { kind: 'revoke', names, connection } }
  }
  const issue = issueOf(read.values, read.bools.has('--admin'), path)
  if (typeof issue === 'string') return { kind: 'error', message: issue }
  return { kind: 'run', command: { kind: 'issue', issue, connection } }
}
