/**
 * Runs the real `npm run build` (infra/build.ts under this Node, as the npm script does) into a
 * fresh temporary folder, so tests look at exactly what ships without touching dist/ (which other
 * tests and people use). `copyAlone` copies one built file into an empty folder of its own
 * (outside the repository: no node_modules above it) — the image's situation — and
 * `startBundle` runs one there under this Node with a bare environment, collecting its JSON log
 * lines. `removeMade` removes every folder made here (call it in afterAll).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { copyFile, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { REPO_ROOT } from '../../infra/repo-root.ts'

/** Long enough for wrangler's and esbuild's bundles on a loaded 2-core machine. */
export const BUILD_TIMEOUT_MS = 240_000

/** Folders made here, removed by `removeMade`. */
const made: string[] = []
const tempDir = async (prefix: string) => {
  const dir = await mkdtemp(join(tmpdir(), prefix))
  made.push(dir)
  return dir
}

export async function removeMade(): Promise<void> {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true })
}

export async function runBuild(): Promise<{ outdir: string; output: string }> {
  const outdir = await tempDir('edgeplane-build-')
  const child = spawn(
    process.execPath,
    ['--experimental-strip-types', 'infra/build.ts', '--outdir', outdir],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] }
  )
  let output = ''
  child.stdout.on('data', (d: Buffer) => {
    output += d.toString()
  })
  child.stderr.on('data', (d: Buffer) => {
    output += d.toString()
  })
  const code = await new Promise<number | null>((r) => child.once('close', r))
  if (code !== 0) throw new Error(`npm run build exited ${code}:\n${output}`)
  return { outdir, output }
}

/** Copies `file` alone into a new empty folder; returns the copy's path. */
export async function copyAlone(file: string): Promise<string> {
  const dir = await tempDir('edgeplane-empty-')
  const copy = join(dir, basename(file))
  await copyFile(file, copy)
  return copy
}

export type RunningBundle = {
  child: ChildProcess
  /** Everything written to stdout and stderr so far. */
  output(): string
  /** The first JSON log line `match` accepts, waiting up to `ms`. */
  logLine(
    match: (line: Record<string, unknown>) => boolean,
    ms?: number
  ): Promise<Record<string, unknown>>
  /** The exit code, once it exits by itself. */
  exited(): Promise<number | null>
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>
}

/**
 * Runs `node <file> ...args` in the file's folder with only PATH set, plus `env` when given (a
 * setting the bundle reads, such as LOG_LEVEL for a more telling failure).
 */
export function startBundle(
  file: string,
  args: string[],
  env: Record<string, string> = {}
): RunningBundle {
  const child = spawn(process.execPath, [file, ...args], {
    cwd: dirname(file),
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const onData = (d: Buffer) => {
    output += d.toString()
  }
  child.stdout?.on('data', onData)
  child.stderr?.on('data', onData)
  const exited = new Promise<number | null>((r) => child.once('close', r))
  const lines = () =>
    output.split('\n').flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>]
      } catch {
        return []
      }
    })
  return {
    child,
    output: () => output,
    async logLine(match, ms = 30_000) {
      const deadline = Date.now() + ms
      for (;;) {
        const found = lines().find(match)
        if (found) return found
        if (child.exitCode !== null || Date.now() > deadline)
          throw new Error(`no such log line (exit ${child.exitCode}); output:\n${output}`)
        await new Promise((r) => setTimeout(r, 50))
      }
    },
    exited: () => exited,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM')
      return exited
    },
  }
}

/** Polls `check` until it returns a value, failing after `ms` (with `context()` in the error). */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined>,
  context: () => string = () => '',
  ms = 30_000
): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const v = await check().catch(() => undefined)
    if (v !== undefined) return v
    if (Date.now() > deadline) throw new Error(`${what}: not before the deadline\n${context()}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}
