/**
 * The local stack's program bundles (infra/local/program-bundles.ts), over a small stand-in
 * repository whose three programs print their name: a set is built once and reused while the
 * sources stay the same, an edit makes a new one, a bundle runs from an empty folder, sets unused
 * for a day are pruned, `bundles: false` runs the sources, and a build that fails falls back to
 * the sources with a warning; with the Worker on, the set holds the Worker as `wrangler deploy`
 * builds it. The real programs' bundles are proven by every end-to-end stack.
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readFile, stat, utimes, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  bundleName,
  LOCAL_PROGRAMS,
  prepareProgramBundles,
  sourceKey,
} from '../../../infra/local/program-bundles.ts'
import { createLogger, silentLogger } from '../../../lib/log.ts'
import { tempDir } from '../../helpers/temp-dir.ts'

/** A repository with each local program printing its entry, importing a shared lib module. */
async function fakeRepo(): Promise<string> {
  const root = await tempDir('ep-progs-')
  await mkdir(join(root, 'lib'), { recursive: true })
  await writeFile(
    join(root, 'lib', 'say.ts'),
    'export const say = (s: string): string => "hi " + s\n'
  )
  for (const main of LOCAL_PROGRAMS) {
    await mkdir(join(root, dirname(main)), { recursive: true })
    const depth = main.split('/').length - 1
    await writeFile(
      join(root, main),
      `import { say } from '${'../'.repeat(depth)}lib/say.ts'\nconsole.log(say(${JSON.stringify(main)}))\n`
    )
  }
  await mkdir(join(root, 'functions'), { recursive: true })
  return root
}

const run = (argv: string[], cwd: string) =>
  execFileSync(process.execPath, argv, { cwd, encoding: 'utf8' }).trim()

describe('prepareProgramBundles', () => {
  it('builds a set once, runs each program from it, and reuses it while the sources stay', async () => {
    const root = await fakeRepo()
    const cacheDir = join(root, 'cache')
    const empty = await tempDir('ep-progs-empty-')
    const first = await prepareProgramBundles({ root, cacheDir, worker: false, log: silentLogger })
    expect(first.mode).toBe('bundles')
    for (const main of LOCAL_PROGRAMS) {
      const argv = first.argv(main)
      expect(argv).toHaveLength(1)
      expect(argv[0]).toBe(join(cacheDir, await sourceKey(root, false), bundleName(main)))
      // Self-contained: it runs from a folder with nothing in it.
      expect(run(argv, empty)).toBe(`hi ${main}`)
    }
    const bundle = first.argv(LOCAL_PROGRAMS[0])[0] ?? ''
    const built = (await stat(bundle)).mtimeMs
    const again = await prepareProgramBundles({ root, cacheDir, worker: false, log: silentLogger })
    expect(again.argv(LOCAL_PROGRAMS[0])).toEqual([bundle])
    expect((await stat(bundle)).mtimeMs).toBe(built)
  })

  it('makes a new set when a source changes, and prunes sets unused for a day', async () => {
    const root = await fakeRepo()
    const cacheDir = join(root, 'cache')
    const before = await prepareProgramBundles({ root, cacheDir, worker: false, log: silentLogger })
    const oldSet = dirname(before.argv(LOCAL_PROGRAMS[0])[0] ?? '')
    const recent = join(cacheDir, 'recent-set')
    await mkdir(recent)
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000)
    await utimes(oldSet, twoDaysAgo, twoDaysAgo)

    const keyBefore = await sourceKey(root, false)
    await writeFile(
      join(root, 'lib', 'say.ts'),
      'export const say = (s: string): string => "hey " + s\n'
    )
    expect(await sourceKey(root, false)).not.toBe(keyBefore)
    const after = await prepareProgramBundles({ root, cacheDir, worker: false, log: silentLogger })
    const argv = after.argv(LOCAL_PROGRAMS[1])
    expect(dirname(argv[0] ?? '')).not.toBe(oldSet)
    expect(run(argv, root)).toBe(`hey ${LOCAL_PROGRAMS[1]}`)
    expect(existsSync(oldSet)).toBe(false)
    expect(existsSync(recent)).toBe(true)
  })

  it('runs the sources when bundles are off, or when the build fails (with a warning)', async () => {
    const root = await fakeRepo()
    const off = await prepareProgramBundles({ root, bundles: false, log: silentLogger })
    expect(off.mode).toBe('source')
    expect(off.argv(LOCAL_PROGRAMS[2])).toEqual(['--experimental-strip-types', LOCAL_PROGRAMS[2]])

    await writeFile(join(root, LOCAL_PROGRAMS[0]), 'import "./missing.ts"\n')
    const lines: string[] = []
    const log = createLogger({ sink: (line) => lines.push(line) })
    const failed = await prepareProgramBundles({
      root,
      cacheDir: join(root, 'cache'),
      worker: false,
      log,
    })
    expect(failed.mode).toBe('source')
    expect(failed.argv(LOCAL_PROGRAMS[1])).toEqual([
      '--experimental-strip-types',
      LOCAL_PROGRAMS[1],
    ])
    const warning = JSON.parse(lines.find((l) => l.includes('could not bundle')) ?? '{}')
    expect(warning.level).toBe('warn')
    expect(warning.error).toContain('missing.ts')
  })

  it('adds the Worker built as `wrangler deploy` ships it, for wrangler dev --no-bundle', async () => {
    const root = await fakeRepo()
    await writeFile(
      join(root, 'wrangler.toml'),
      'name = "tiny"\nmain = "functions/index.ts"\ncompatibility_date = "2026-04-01"\n'
    )
    await writeFile(
      join(root, 'functions', 'index.ts'),
      'import { say } from "../lib/say.ts"\nexport default { fetch: () => new Response(say("worker")) }\n'
    )
    const runner = await prepareProgramBundles({
      root,
      cacheDir: join(root, 'cache'),
      log: silentLogger,
    })
    expect(runner.mode).toBe('bundles')
    const script = runner.workerScript ?? ''
    expect(script).toBe(join(root, 'cache', await sourceKey(root), 'worker', 'index.js'))
    const text = await readFile(script, 'utf8')
    expect(text).toContain('hi ')
    expect(text).not.toContain('import { say }')
    expect(await sourceKey(root)).not.toBe(await sourceKey(root, false))
  }, 60_000)
})
