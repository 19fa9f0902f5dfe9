/**
 * `npm run deploy`: deploys the center Worker with the production settings — the top level of
 * wrangler.toml (`wrangler deploy --env ""`; the `local` environment is `npm start`'s) — after
 * checking the variables as wrangler resolves them: one naming a local endpoint (a loopback or
 * wildcard address, dynalite's port) stops the deploy. Other arguments go to `wrangler deploy`
 * (`npm run deploy -- --dry-run --outdir dist` builds without uploading, with the arguments and
 * so the Worker of `npm run build`: worker-bundle.ts; minified, as wrangler.toml says). Exit code:
 * wrangler's; 1 when the check fails; 2 for `--env` (this deploys production only).
 */
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { wranglerBin } from './local/wrangler-process.ts'
import { localSettings } from './local-endpoints.ts'
import { REPO_ROOT } from './repo-root.ts'
import { deployArgs } from './worker-bundle.ts'

export const USAGE = `Usage: npm run deploy [-- <wrangler deploy flags>]

Deploys the Worker with the production settings of wrangler.toml (its top level: DynamoDB's regional
endpoint, credentials and the admin token from secrets), once no production variable names a local
endpoint. Flags go to "wrangler deploy", e.g. --dry-run --outdir dist. See infra/README.md.`

export type DeployDeps = {
  /** The production (top-level) variables as wrangler resolves them. */
  productionVars(): Promise<Record<string, unknown>>
  /** Runs wrangler with `args`; resolves with its exit code. */
  wrangler(args: string[]): Promise<number>
  print(line: string): void
}

/** The production variables, read through wrangler's own configuration loader. */
export async function readProductionVars(
  configPath = resolve(REPO_ROOT, 'wrangler.toml')
): Promise<Record<string, unknown>> {
  const { unstable_readConfig } = await import('wrangler')
  return { ...unstable_readConfig({ config: configPath, env: undefined }).vars }
}

export async function runDeploy(argv: string[], deps: DeployDeps): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    deps.print(USAGE)
    return 0
  }
  if (argv.some((a) => a === '-e' || a.startsWith('--env') || /^-e./.test(a))) {
    deps.print(`npm run deploy deploys the production settings only; drop --env.\n\n${USAGE}`)
    return 2
  }
  const problems = localSettings(await deps.productionVars())
  if (problems.length) {
    deps.print(
      `refusing to deploy: production settings in wrangler.toml name local endpoints:\n  ${problems.join('\n  ')}`
    )
    return 1
  }
  return deps.wrangler(deployArgs(argv))
}

const realDeps: DeployDeps = {
  productionVars: () => readProductionVars(),
  wrangler: async (args) =>
    spawnSync(process.execPath, [wranglerBin(), ...args], { cwd: REPO_ROOT, stdio: 'inherit' })
      .status ?? 1,
  print: (line) => process.stderr.write(`${line}\n`),
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runDeploy(process.argv.slice(2), realDeps)
}
