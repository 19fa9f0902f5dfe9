/**
 * What `npm run deploy` ships: the production settings of wrangler.toml as wrangler resolves them
 * (no local endpoint, the regional DynamoDB endpoint, the cron, minified), the local settings only
 * in the `local` environment `npm start` uses, the same wrangler arguments as `npm run build`'s
 * Worker (so both build one Worker), and the bundle a real `npm run deploy -- --dry-run` builds
 * (minified; its bindings, and the modules of this repository in it as esbuild's metafile lists
 * them: no local endpoint, nothing local-only).
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
import { workerBundleArgs } from '../../infra/worker-bundle.ts'

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

  it("builds with the arguments of npm run build's Worker (and npm start's)", async () => {
    const { deps, calls } = fakeDeps({ DDB_ENDPOINT: '' })
    await runDeploy(['--dry-run', '--outdir', 'dist'], deps)
    expect(calls).toEqual([workerBundleArgs('dist')])
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

  it('minifies at the top level, for every way of building it, and the local environment too', () => {
    expect(unstable_readConfig({ config: CONFIG, env: undefined }).minify).toBe(true)
    expect(unstable_readConfig({ config: CONFIG, env: LOCAL_ENV }).minify).toBe(true)
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
  let inputs: string[] = []

  beforeAll(async () => {
    outdir = await mkdtemp(join(tmpdir(), 'ep-deploy-'))
    const child = spawn(
      process.execPath,
      [
        '--experimental-strip-types',
        'infra/deploy.ts',
        '--dry-run',
        '--outdir',
        outdir,
        '--metafile',
      ],
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
    const meta = JSON.parse(await readFile(join(outdir, 'bundle-meta.json'), 'utf8'))
    inputs = Object.keys(meta.inputs as Record<string, unknown>)
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

  it('is minified, as npm run build builds it', () => {
    // esbuild marks each module of an unminified bundle with a `// <path>` line.
    expect(bundle).not.toMatch(/^\/\/ functions\/index\.ts$/m)
    expect(bundle.split('\n').length).toBeLessThan(inputs.length)
  })

  it("holds no local endpoint in this repository's modules, and nothing local-only", async () => {
    const ours = inputs.filter((p) => /^(functions|lib|infra)\//.test(p))
    expect(ours).toContain('functions/index.ts')
    expect(ours.length).toBeGreaterThan(50)
    const hits: string[] = []
    for (const path of ours) {
      const code = await readFile(join(REPO_ROOT, path), 'utf8')
      hits.push(...findLocalEndpoints(code).map((e) => `${path}: ${e}`))
    }
    expect(hits).toEqual([])
    // Paths are relative to the repository; node_modules may be elsewhere (../x/node_modules/).
    const packages = inputs.filter((p) => /(^|\/)node_modules\//.test(p))
    expect(packages.length).toBeGreaterThan(100)
    const localOnly = inputs.filter((p) =>
      /^(infra\/local\/|test\/)|(^|\/)node_modules\/(dynalite|wrangler|miniflare)\//.test(p)
    )
    expect(localOnly).toEqual([])
  })
})
