/**
 * What `npm run deploy` ships: the production settings of wrangler.toml as wrangler resolves them
 * (no local endpoint, the regional DynamoDB endpoint, the cron), the local settings only in the
 * `local` environment `npm start` uses, and the bundle a real `npm run deploy -- --dry-run` builds
 * (its bindings and the modules of this repository in it: no local endpoint, nothing local-only).
 */
import { spawn } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { unstable_readConfig } from 'wrangler'
import { type DeployDeps, readProductionVars, runDeploy } from '../../infra/deploy.ts'
import { LOCAL_CRON } from '../../infra/local/cron-ticker.ts'
import { LOCAL_ENV, WRANGLER_ENV } from '../../infra/local/wrangler-process.ts'
import { findLocalEndpoints, localSettings } from '../../infra/local-endpoints.ts'
import { REPO_ROOT } from '../../infra/repo-root.ts'

const CONFIG = join(REPO_ROOT, 'wrangler.toml')

function fakeDeps(vars: Record<string, unknown>) {
  const calls: string[][] = []
  const printed: string[] = []
  const deps: DeployDeps = {
    productionVars: async () => vars,
    wrangler: async (args) => {
      calls.push(args)
      return 0
    },
    print: (line) => printed.push(line),
  }
  return { deps, calls, printed }
}

describe('npm run deploy', () => {
  it('runs wrangler deploy on the top-level (production) settings with the given flags', async () => {
    const { deps, calls } = fakeDeps({ DDB_ENDPOINT: '', DDB_REGION: 'eu-west-1' })
    expect(await runDeploy(['--dry-run', '--outdir', 'x'], deps)).toBe(0)
    expect(calls).toEqual([['deploy', '--env', '', '--dry-run', '--outdir', 'x']])
  })

  it('refuses production settings naming a local endpoint, without running wrangler', async () => {
    const { deps, calls, printed } = fakeDeps({ DDB_ENDPOINT: 'http://127.0.0.1:8000' })
    expect(await runDeploy([], deps)).toBe(1)
    expect(calls).toEqual([])
    expect(printed.join('\n')).toContain('refusing to deploy')
    expect(printed.join('\n')).toContain('DDB_ENDPOINT=http://127.0.0.1:8000')
  })

  it('deploys production only: --env is refused', async () => {
    for (const flag of [['--env', 'local'], ['--env=local'], ['-e', 'local'], ['-elocal']]) {
      const { deps, calls } = fakeDeps({})
      expect(await runDeploy(flag, deps)).toBe(2)
      expect(calls).toEqual([])
    }
  })
})

describe('wrangler.toml', () => {
  it('has production settings at the top level: no local endpoint, the regional endpoint', async () => {
    const vars = await readProductionVars(CONFIG)
    expect(localSettings(vars)).toEqual([])
    expect(vars.DDB_ENDPOINT).toBe('')
    expect(vars).toMatchObject({ TABLE_NAME: 'edgeplane', DDB_REGION: expect.any(String) })
    const prod = unstable_readConfig({ config: CONFIG, env: undefined })
    expect(prod.name).toBe('edgeplane')
    expect(prod.triggers.crons).toEqual([LOCAL_CRON])
  })

  it('keeps the local settings in the environment npm start runs, with the same cron', () => {
    const local = unstable_readConfig({ config: CONFIG, env: LOCAL_ENV })
    expect(localSettings(local.vars)).not.toEqual([])
    expect(local.vars).toMatchObject({ DDB_ENDPOINT: 'http://127.0.0.1:8000' })
    // Environments inherit triggers but not vars: the local one must list every variable.
    expect(local.triggers.crons).toEqual([LOCAL_CRON])
    const production = unstable_readConfig({ config: CONFIG, env: undefined }).vars
    expect(Object.keys(local.vars)).toEqual(expect.arrayContaining(Object.keys(production)))
  })
})

describe('the production bundle (npm run deploy -- --dry-run)', () => {
  let outdir: string
  let output = ''
  let bundle = ''

  beforeAll(async () => {
    outdir = await mkdtemp(join(tmpdir(), 'ep-deploy-'))
    const child = spawn(
      process.execPath,
      ['--experimental-strip-types', 'infra/deploy.ts', '--dry-run', '--outdir', outdir],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, ...WRANGLER_ENV },
        stdio: ['ignore', 'pipe', 'pipe'],
      }
    )
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString()
    })
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString()
    })
    const code = await new Promise((r) => child.once('exit', r))
    if (code !== 0) throw new Error(`npm run deploy -- --dry-run exited ${code}:\n${output}`)
    const js = (await readdir(outdir)).filter((f) => f.endsWith('.js'))
    bundle = (await Promise.all(js.map((f) => readFile(join(outdir, f), 'utf8')))).join('\n')
  }, 120_000)
  afterAll(async () => {
    await rm(outdir, { recursive: true, force: true })
  })

  it('binds the production variables only', () => {
    expect(output).toContain('--dry-run: exiting now')
    expect(output).toMatch(/env\.DDB_ENDPOINT \(""\)/)
    expect(output).toMatch(/env\.TABLE_NAME \("edgeplane"\)/)
    expect(findLocalEndpoints(output)).toEqual([])
  })

  it("holds no local endpoint in this repository's modules, and nothing local-only", () => {
    // esbuild marks each module of an unminified bundle with a `// <path>` line.
    const sections = bundle.split(/^\/\/ (?=[\w.@/-]+\.[cm]?[jt]s$)/m).map((s) => {
      const nl = s.indexOf('\n')
      return { path: s.slice(0, nl), code: s.slice(nl + 1) }
    })
    const ours = sections.filter((s) => /^(functions|lib|infra)\//.test(s.path))
    expect(ours.map((s) => s.path)).toContain('functions/index.ts')
    expect(ours.length).toBeGreaterThan(50)
    const hits = ours.flatMap((s) => findLocalEndpoints(s.code).map((e) => `${s.path}: ${e}`))
    expect(hits).toEqual([])
    const localOnly = sections.filter((s) =>
      /^(infra\/local\/|test\/|node_modules\/(dynalite|wrangler|miniflare)\/)/.test(s.path)
    )
    expect(localOnly.map((s) => s.path)).toEqual([])
  })
})
