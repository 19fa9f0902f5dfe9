/**
 * `npm run fuzz`: sends hostile requests (generate.ts) to a hub and checks every answer and the
 * stored state (runner.ts); prints a table of answers by category and status and every
 * violation; exits 1 on any violation, 2 on bad arguments. By default the hub runs in this
 * process over an in-memory dynalite; `--url` targets any running hub, and the local stack's
 * (found as every CLI finds it, infra/stack-discovery.ts) lends its admin token and certificate
 * when `--url` names it. A TLS failure says to pass `--ca-file`.
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import {
  type FoundStack,
  failureText,
  findLocalStack,
  isStackHub,
  stackCaFor,
  tlsHint,
} from '../stack-discovery.ts'
import { CATEGORIES } from './generate.ts'
import { renderReport } from './report.ts'
import { runFuzz } from './runner.ts'
import { openSession } from './session.ts'

const USAGE = `usage: npm run fuzz -- [options]

Sends hostile requests to an edgeplane hub and checks: no 5xx (except kube's 504
ResourceVersionTooLarge for a read ahead of the store), every error a kube Status,
nothing stored that was refused, no object changed that a request does not name,
no identity change, and the hub still answering. Exits 1 on any violation.

  --seed N          generator seed (default 1); the same seed sends the same requests
  --count N         number of requests (default 1200)
  --category LIST   comma-separated categories (default all):
                    ${Object.keys(CATEGORIES).join(', ')}
  --url URL         fuzz a running hub (e.g. https://127.0.0.1:8787) instead of an in-process one
  --token TOKEN     its admin token          --token-file PATH   read it from a file
  --user-token T    a tenant token (optional; its requests are skipped without one)
  --ca-file PATH    CA certificate (PEM) for an https URL (e.g. .edgeplane/tls/cert.pem;
                    --ca is the same)
  --timeout-ms N    per-request answer deadline (default 30000)
  --health-every N  health check interval in requests (default 100)
  --help            this text

With --url naming the running local stack (stack.json in $EDGEPLANE_DATA, else in
.edgeplane/ of the current folder or of the repository) and no token, its admin token is
used, and its certificate as --ca-file.
`

function int(v: string | undefined, name: string, dflt: number): number {
  if (v === undefined) return dflt
  const n = Number(v)
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`--${name} must be a non-negative integer, not ${JSON.stringify(v)}`)
  return n
}

async function main(found: FoundStack): Promise<number> {
  let values: Record<string, string | boolean | undefined>
  try {
    values = parseArgs({
      options: {
        seed: { type: 'string' },
        count: { type: 'string' },
        category: { type: 'string' },
        url: { type: 'string' },
        token: { type: 'string' },
        'token-file': { type: 'string' },
        'user-token': { type: 'string' },
        ca: { type: 'string' },
        'ca-file': { type: 'string' },
        'timeout-ms': { type: 'string' },
        'health-every': { type: 'string' },
        help: { type: 'boolean' },
      },
    }).values
  } catch (e) {
    process.stderr.write(`fuzz: ${(e as Error).message}\n\n${USAGE}`)
    return 2
  }
  if (values.help) {
    process.stdout.write(USAGE)
    return 0
  }
  let seed: number
  let count: number
  let timeoutMs: number
  let healthEvery: number
  let categories: string[] | undefined
  try {
    seed = int(values.seed as string | undefined, 'seed', 1)
    count = int(values.count as string | undefined, 'count', 1200)
    timeoutMs = int(values['timeout-ms'] as string | undefined, 'timeout-ms', 30_000)
    healthEvery = Math.max(
      1,
      int(values['health-every'] as string | undefined, 'health-every', 100)
    )
    categories = (values.category as string | undefined)
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean)
    for (const c of categories ?? []) if (!CATEGORIES[c]) throw new Error(`unknown category "${c}"`)
  } catch (e) {
    process.stderr.write(`fuzz: ${(e as Error).message}\n\n${USAGE}`)
    return 2
  }
  const url = values.url as string | undefined
  const local = url !== undefined && isStackHub(url, found.info)
  let token = values.token as string | undefined
  const tokenFile =
    (values['token-file'] as string | undefined) ??
    (local && !token ? found.info?.adminTokenFile : undefined)
  if (!token && tokenFile) token = readFileSync(tokenFile, 'utf8').trim()
  const caPath =
    (values['ca-file'] as string | undefined) ??
    (values.ca as string | undefined) ??
    (url ? stackCaFor(url, found.info) : undefined)
  const t0 = performance.now()
  const progress = (m: string) =>
    process.stderr.write(`[fuzz +${((performance.now() - t0) / 1000).toFixed(1)}s] ${m}\n`)
  progress(
    url
      ? `seeding the fixture on ${url}`
      : 'starting dynalite and an in-process hub, seeding the fixture'
  )
  const session = await openSession({
    ...(url ? { url } : {}),
    ...(token ? { token } : {}),
    ...(values['user-token'] ? { userToken: values['user-token'] as string } : {}),
    ...(caPath ? { ca: readFileSync(caPath, 'utf8') } : {}),
    timeoutMs,
  })
  try {
    const result = await runFuzz(session.hub, {
      seed,
      count,
      healthEvery,
      progress,
      ...(categories ? { categories } : {}),
    })
    process.stdout.write(`${renderReport(result, seed)}\n`)
    return result.violations.length > 0 ? 1 : 0
  } finally {
    await session.close()
  }
}

const found = await findLocalStack(process.env, process.cwd())
main(found).then(
  (code) => {
    process.exitCode = code
    // the in-process hub's sockets may linger; the report is out, so leave now
    setTimeout(() => process.exit(code), 200).unref()
  },
  (e: unknown) => {
    const cwd = process.cwd()
    const text = tlsHint(e, found, cwd)
      ? failureText(e, found, cwd)
      : e instanceof Error
        ? (e.stack ?? e.message)
        : String(e)
    process.stderr.write(`fuzz failed: ${text}\n`)
    process.exit(1)
  }
)
