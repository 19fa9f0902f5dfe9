/**
 * The local stack's Node programs (the relay, each simulated edge, each edge agent) run from
 * bundles made as the images' are (node-bundles.ts `bundleProgram`), not from the TypeScript
 * sources: a bundle loads in about 0.2 CPU-s, where the sources' hundreds of modules, each
 * stripped of its types on load, take 0.5 to 0.9 (measured for these three programs). The Worker
 * runs from the bundle `wrangler deploy` would ship (worker-bundle.ts) under `wrangler dev
 * --no-bundle`, which saves wrangler's own bundling, about 0.8 CPU-s, at each (re)start.
 *
 * A set of bundles is cached in `<cacheDir>/<key>/`, the key a hash of every .ts file under lib/,
 * functions/ and infra/, of package-lock.json and of wrangler.toml: an edit makes a new set, and every stack started
 * from the same sources uses the same one (the end-to-end suite builds it once for all its stacks).
 * A set is written to a folder of its own and renamed into place, so a concurrent start never
 * reads a half-written one; sets not used for a day are removed. `EDGEPLANE_PROGRAMS=source` runs
 * the sources instead; a failed build is logged and the sources run.
 */
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, rename, rm, stat, utimes } from 'node:fs/promises'
import { join } from 'node:path'
import type { Logger } from '../../lib/log.ts'
import { bundleProgram } from '../node-bundles.ts'
import { buildWorkerBundle, workerEntry } from '../worker-bundle.ts'
import { childArgv, EDGE_AGENT_MAIN, EDGE_SIM_MAIN, RELAY_MAIN } from './supervise.ts'

/** The programs `npm start` runs, by their entry (relative to the repository root). */
export const LOCAL_PROGRAMS = [RELAY_MAIN, EDGE_SIM_MAIN, EDGE_AGENT_MAIN] as const

/** The folders whose sources go into the programs. */
const SOURCE_DIRS = ['lib', 'functions', 'infra']

/** A set unused for this long is removed by the next build. */
const UNUSED_MS = 24 * 60 * 60 * 1000

export type ProgramRunner = {
  /** `bundles` when the programs run from bundles, `source` otherwise. */
  mode: 'bundles' | 'source'
  /** The Node arguments that run `main` (one of LOCAL_PROGRAMS) before its own arguments. */
  argv(main: string): string[]
  /** The Worker's bundle, for `wrangler dev --no-bundle`; absent: wrangler bundles the sources. */
  workerScript?: string
}

export type ProgramBundlesOptions = {
  /** The repository root. */
  root: string
  /** Default `<root>/node_modules/.cache/edgeplane/programs`. */
  cacheDir?: string
  /** false: run the sources (EDGEPLANE_PROGRAMS=source). */
  bundles?: boolean
  /** false: no Worker bundle in the set (wrangler dev bundles the sources itself). Default true. */
  worker?: boolean
  log: Logger
}

const fromSource: ProgramRunner = { mode: 'source', argv: (main) => childArgv({ main, args: [] }) }

/** The bundle file of `main` inside a set. */
export const bundleName = (main: string) => `${main.replace(/\//g, '_').replace(/\.ts$/, '')}.mjs`

async function hashTree(h: ReturnType<typeof createHash>, root: string, dir: string) {
  const entries = await readdir(join(root, dir), { withFileTypes: true })
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  for (const e of entries) {
    const rel = `${dir}/${e.name}`
    if (e.isDirectory()) await hashTree(h, root, rel)
    else if (e.name.endsWith('.ts')) {
      h.update(`${rel}\0`)
      h.update(await readFile(join(root, rel)))
      h.update('\0')
    }
  }
}

/**
 * The cache key of the current sources: every .ts file of SOURCE_DIRS, the lock file and
 * wrangler.toml (its compatibility settings shape the Worker's bundle), and whether the set holds
 * the Worker.
 */
export async function sourceKey(root: string, worker = true): Promise<string> {
  const h = createHash('sha256')
  for (const dir of SOURCE_DIRS) await hashTree(h, root, dir)
  for (const file of ['package-lock.json', 'wrangler.toml']) {
    const path = join(root, file)
    if (existsSync(path)) h.update(await readFile(path))
  }
  h.update(`${process.versions.node}\0${worker ? 'worker' : 'programs'}`)
  return h.digest('hex').slice(0, 24)
}

/** The Worker's folder inside a set. */
const WORKER_DIR = 'worker'

const complete = (set: string, worker: boolean) =>
  LOCAL_PROGRAMS.every((m) => existsSync(join(set, bundleName(m)))) &&
  (!worker || existsSync(workerEntry(join(set, WORKER_DIR))))

/** Removes the sets other than `keep` that nobody used for a day; errors are ignored. */
async function prune(cacheDir: string, keep: string): Promise<void> {
  const now = Date.now()
  for (const name of await readdir(cacheDir).catch(() => [] as string[])) {
    if (name === keep) continue
    const path = join(cacheDir, name)
    const info = await stat(path).catch(() => undefined)
    if (info && now - info.mtimeMs > UNUSED_MS)
      await rm(path, { recursive: true, force: true }).catch(() => undefined)
  }
}

async function buildSet(
  root: string,
  cacheDir: string,
  key: string,
  worker: boolean
): Promise<string> {
  const set = join(cacheDir, key)
  if (complete(set, worker)) {
    // Marks it used, so pruning keeps it.
    const now = new Date()
    await utimes(set, now, now).catch(() => undefined)
    return set
  }
  const scratch = join(cacheDir, `.${key}-${process.pid}-${Date.now()}`)
  await mkdir(scratch, { recursive: true })
  try {
    // Every build ends before the scratch folder may be removed: with Promise.all, the first
    // failure removed it while the others still wrote there, and that error hid the build's.
    const builds = await Promise.allSettled([
      ...LOCAL_PROGRAMS.map((main) => bundleProgram(root, main, join(scratch, bundleName(main)))),
      ...(worker ? [buildWorkerBundle(root, join(scratch, WORKER_DIR))] : []),
    ])
    for (const b of builds) if (b.status === 'rejected') throw b.reason
    await rename(scratch, set).catch(async (e: NodeJS.ErrnoException) => {
      // Another start renamed its own set into place first: the same sources, the same bundles.
      if (!complete(set, worker)) throw e
    })
  } finally {
    await rm(scratch, { recursive: true, force: true }).catch(() => undefined)
  }
  await prune(cacheDir, key)
  return set
}

/** How the local stack runs its programs: from a cached bundle set, built when missing. */
export async function prepareProgramBundles(opts: ProgramBundlesOptions): Promise<ProgramRunner> {
  if (opts.bundles === false) return fromSource
  const cacheDir =
    opts.cacheDir ?? join(opts.root, 'node_modules', '.cache', 'edgeplane', 'programs')
  const started = Date.now()
  const worker = opts.worker !== false
  try {
    const key = await sourceKey(opts.root, worker)
    const set = await buildSet(opts.root, cacheDir, key, worker)
    opts.log.info('programs bundled', { dir: set, ms: Date.now() - started })
    return {
      mode: 'bundles',
      argv: (main) => [join(set, bundleName(main))],
      ...(worker ? { workerScript: workerEntry(join(set, WORKER_DIR)) } : {}),
    }
  } catch (e) {
    opts.log.warn('could not bundle the programs; running their sources', {
      error: (e as Error).message,
    })
    return fromSource
  }
}
