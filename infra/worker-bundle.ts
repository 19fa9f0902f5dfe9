/**
 * The Worker as `wrangler deploy` ships it, built offline with `wrangler deploy --dry-run` into a
 * folder (its entry is `index.js` there): what `npm run build` writes to dist/ (with wrangler's
 * output shown) and what the local stack runs under `wrangler dev --no-bundle` (program-bundles.ts)
 * so that each start does not bundle the sources again. Its wrangler arguments are those of
 * `npm run deploy -- --dry-run --outdir <dir>` (deployArgs), and how it is built (minified) is
 * wrangler.toml's top level, so `npm run build`, `npm run deploy` and plain `wrangler deploy`
 * build one Worker. Rejects with the tail of wrangler's output when the build fails.
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { WRANGLER_ENV, wranglerBin } from './local/wrangler-process.ts'

/** The entry of a Worker bundle folder. */
export const workerEntry = (dir: string) => join(dir, 'index.js')

/** `wrangler deploy` of the production (top-level) settings with `flags`: what deploy.ts runs. */
export const deployArgs = (flags: readonly string[]): string[] => ['deploy', '--env', '', ...flags]

/** The wrangler arguments of a Worker bundle built into `outdir`. */
export const workerBundleArgs = (outdir: string): string[] =>
  deployArgs(['--dry-run', '--outdir', outdir])

export type WorkerBundleOptions = {
  /** wrangler's output goes to this process's (`npm run build`); else it is kept for the error. */
  show?: boolean
}

/** Builds the Worker of the repository at `root` into `outdir`; resolves with its entry. */
export function buildWorkerBundle(
  root: string,
  outdir: string,
  opts: WorkerBundleOptions = {}
): Promise<string> {
  const args = [wranglerBin(), ...workerBundleArgs(outdir)]
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...process.env, ...WRANGLER_ENV },
      stdio: ['ignore', opts.show ? 'inherit' : 'pipe', opts.show ? 'inherit' : 'pipe'],
    })
    let output = ''
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000)
    }
    child.stdout?.on('data', keep)
    child.stderr?.on('data', keep)
    child.once('error', reject)
    child.once('exit', (code, signal) => {
      if (code === 0) resolve(workerEntry(outdir))
      else
        reject(
          new Error(
            `wrangler ${workerBundleArgs(outdir).join(' ')} ended with ${signal ?? `code ${code}`}: ${output.trim()}`
          )
        )
    })
  })
}
