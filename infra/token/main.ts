/**
 * `npm run token`: issue, list and revoke the hub's bearer tokens through its Token API (see
 * cli-args.ts for the commands and flags, connection.ts for where it connects). `issue` prints the
 * token alone on stdout (its name and expiry on stderr), so `TOKEN=$(npm run -s token -- issue
 * ...)` works. The local stack is found as every CLI finds it (infra/stack-discovery.ts), and a
 * TLS failure says to pass `--ca-file`. Exits 0 on success, 2 on bad arguments, 1 when the hub
 * refuses or cannot be reached.
 */
import { readFile } from 'node:fs/promises'
import { nodeTransport } from '../../lib/remote/node-transport.ts'
import { writePrivateFile } from '../local/data-dir.ts'
import { type FoundStack, failureText, findLocalStack } from '../stack-discovery.ts'
import { issueToken, listTokens, revokeToken, type SendFn } from './call.ts'
import { parseTokenArgs, USAGE } from './cli-args.ts'
import { resolveConnection } from './connection.ts'
import { issuedKubeconfig, renderTokenTable } from './format.ts'

async function main(found: FoundStack): Promise<number> {
  const req = parseTokenArgs(process.argv.slice(2), process.env)
  if (req.kind === 'help') {
    process.stdout.write(USAGE)
    return 0
  }
  if (req.kind === 'error') {
    process.stderr.write(`${req.message}\n\n${USAGE}`)
    return 2
  }
  const { command } = req
  const stack = found.info
  const conn = await resolveConnection(command.connection, stack, (p) => readFile(p, 'utf8'))
  if (typeof conn === 'string') {
    process.stderr.write(`${conn}\n`)
    return 2
  }
  const send: SendFn = nodeTransport(conn.caPem ? { ca: conn.caPem } : {})
  if (command.kind === 'list') {
    process.stdout.write(renderTokenTable(await listTokens(conn, send), new Date()))
    return 0
  }
  if (command.kind === 'revoke') {
    for (const name of command.names) {
      await revokeToken(conn, send, name)
      process.stderr.write(`token ${name} revoked\n`)
    }
    return 0
  }
  const issued = await issueToken(conn, send, command.issue)
  if (command.issue.kubeconfigOut)
    await writePrivateFile(command.issue.kubeconfigOut, issuedKubeconfig(conn, issued))
  process.stdout.write(`${issued.token}\n`)
  process.stderr.write(`token ${issued.name} issued; expires ${issued.expirationTimestamp}\n`)
  return 0
}

const found = await findLocalStack(process.env, process.cwd())
main(found).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`token: ${failureText(err, found, process.cwd())}\n`)
    process.exit(1)
  }
)
