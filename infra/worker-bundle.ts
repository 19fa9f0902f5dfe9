/**
 * The Worker as `wrangler deploy` ships it, built offline with `wrangler deploy --dry-run` into a
 * folder (its entry is `index.js` there): what `npm run build` writes to dist/ (minified there)
 * and what the local stack runs under `wrangler dev --no-bundle` (program-bundles.ts) so that
 * each start does not bundle the sources again. Rejects with the tail of wrangler's output when
 * the build fails.
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { WRANGLER_ENV, wranglerBin } from './local/wrangler-process.ts'

/** The entry of a Worker bundle folder. */
export const workerEntry = (dir: string) => join(dir, 'index.js')

/** Builds the Worker of the repository at `root` into `outdir`; resolves with its entry. */
export function buildWorkerBundle(root: string, outdir: string): Promise<string> {
  const args = [wranglerBin(), 'deploy', '--dry-run', '--outdir', outdir]
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...process.env, ...WRANGLER_ENV },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000)
    }
    child.stdout.on('data', keep)
    child.stderr.on('data', keep)
    child.once('error', reject)
    child.once('exit', (code, signal) => {
      if (code === 0) resolve(workerEntry(outdir))
      else
        reject(
          new Error(
            `wrangler deploy --dry-run ended with ${signal ?? `code ${code}`}: ${output.trim()}`
          )
        )
    })
  })
}
