/**
 * `npm run build`: bundles the Worker for production with `wrangler deploy --dry-run` (offline,
 * nothing is uploaded) into dist/, then prints the bundle's size, raw and gzipped, so size
 * regressions are visible. `--help` for usage.
 */
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'

const HELP = `Usage: npm run build [-- --outdir DIR]

Bundles functions/index.ts for Cloudflare Workers with "wrangler deploy --dry-run --minify"
(offline, uploads nothing) into DIR (default dist/) and prints the bundle size.`

function main(argv: string[]): number {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(HELP)
    return 0
  }
  const i = argv.indexOf('--outdir')
  const outdir = resolve((i >= 0 ? argv[i + 1] : undefined) ?? 'dist')
  const wrangler = resolve('node_modules/wrangler/bin/wrangler.js')
  const res = spawnSync(
    process.execPath,
    [wrangler, 'deploy', '--dry-run', '--minify', '--outdir', outdir],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: {
        ...process.env,
        WRANGLER_SEND_METRICS: 'false',
        WRANGLER_HIDE_BANNER: 'true',
        WRANGLER_SEND_ERROR_REPORTS: 'false',
        CLOUDFLARE_CF_FETCH_ENABLED: 'false',
      },
    }
  )
  if (res.status !== 0) return res.status ?? 1
  for (const f of readdirSync(outdir).filter((n) => n.endsWith('.js'))) {
    const path = join(outdir, f)
    const raw = statSync(path).size
    const gz = gzipSync(readFileSync(path)).length
    console.log(
      `bundle ${path}: ${(raw / 1024).toFixed(1)} KiB, ${(gz / 1024).toFixed(1)} KiB gzipped`
    )
  }
  return 0
}

process.exitCode = main(process.argv.slice(2))
