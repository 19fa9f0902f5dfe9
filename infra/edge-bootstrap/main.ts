/**
 * `npm run edge:bootstrap`: issues a SyncTarget's edge credential through the hub's bootstrap
 * endpoint and writes the manifests for its edge cluster (see cli-args.ts for the flags). The
 * local stack is found as every CLI finds it (infra/stack-discovery.ts). The request goes over
 * lib/remote/node-transport.ts, which trusts `--ca-file` (or the local stack's certificate);
 * without one, Node's default CAs plus NODE_EXTRA_CA_CERTS apply, and a TLS failure says to pass
 * `--ca-file`. Exits 0 with the YAML on stdout (or in `--out`, mode 0600) and `mailbox <name>` and
 * `image <ref>` on stderr; 2 on bad arguments; 3 when the SyncTarget already has a credential and
 * `--rotate` was not given (refusal.ts; nothing is written); 1 when the hub refuses otherwise or
 * cannot be reached.
 */
import { readFile } from 'node:fs/promises'
import { nodeTransport } from '../../lib/remote/node-transport.ts'
import { writePrivateFile } from '../local/data-dir.ts'
import { failureText, findLocalStack } from '../stack-discovery.ts'
import { requestBootstrap } from './call.ts'
import { parseBootstrapArgs, USAGE, withStackDefaults } from './cli-args.ts'
import { REFUSED_ROTATION_EXIT, rotationRefusal } from './refusal.ts'

async function main(): Promise<number> {
  const cwd = process.cwd()
  const req = parseBootstrapArgs(process.argv.slice(2), process.env, cwd)
  if (req.kind === 'help') {
    process.stdout.write(USAGE)
    return 0
  }
  if (req.kind === 'error') {
    process.stderr.write(`${req.message}\n\n${USAGE}`)
    return 2
  }
  const found = await findLocalStack(process.env, cwd)
  const cfg = withStackDefaults(req.flags, found)
  if (typeof cfg === 'string') {
    process.stderr.write(`${cfg}\n\n${USAGE}`)
    return 2
  }
  const token = (await readFile(cfg.tokenFile, 'utf8')).trim()
  if (!token) {
    process.stderr.write(`the token file ${cfg.tokenFile} is empty\n`)
    return 1
  }
  const ca = cfg.caFile ? await readFile(cfg.caFile, 'utf8') : undefined
  const answer = await requestBootstrap(
    {
      hubUrl: cfg.hubUrl,
      token,
      waitSeconds: cfg.waitSeconds,
      request: {
        inventory: cfg.inventory,
        syncTarget: cfg.syncTarget,
        ...(cfg.centerUrl ? { centerUrl: cfg.centerUrl } : {}),
        ...(ca ? { caPem: ca } : {}),
        ...(cfg.image ? { image: cfg.image } : {}),
        ...(cfg.namespace ? { namespace: cfg.namespace } : {}),
        ...(cfg.pollIntervalSeconds ? { pollIntervalSeconds: cfg.pollIntervalSeconds } : {}),
        ...(cfg.rotate ? { rotate: true } : {}),
      },
      onRetry: (message) => process.stderr.write(`waiting: ${message}\n`),
    },
    nodeTransport(ca ? { ca } : {})
  ).catch((err: unknown) => {
    const refused = rotationRefusal(err, cfg)
    if (refused === undefined) throw new Error(failureText(err, found, cwd), { cause: err })
    process.stderr.write(`edge bootstrap ${refused}\n`)
    return undefined
  })
  if (!answer) return REFUSED_ROTATION_EXIT
  if (cfg.out) await writePrivateFile(cfg.out, answer.manifests)
  else process.stdout.write(answer.manifests)
  process.stderr.write(`mailbox ${answer.mailbox}\n`)
  if (answer.image) process.stderr.write(`image ${answer.image}\n`)
  return 0
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(
      `edge bootstrap failed: ${err instanceof Error ? err.message : String(err)}\n`
    )
    process.exit(1)
  }
)
