/**
 * `npm run build`: bundles the Worker for production with `wrangler deploy --dry-run` (offline,
 * nothing is uploaded) into dist/ — the arguments of `npm run deploy -- --dry-run --outdir dist`,
 * minified as wrangler.toml's top level says, so both build the same Worker (worker-bundle.ts) —
 * then the edge agent and the relay as self-contained Node bundles (node-bundles.ts) into
 * dist/edge-agent/main.mjs and dist/relay/main.mjs, the files their images copy; and prints each
 * bundle's size, raw and gzipped, so size regressions are visible. `--help` for usage.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import { buildNodeBundles } from './node-bundles.ts'
import { buildWorkerBundle } from './worker-bundle.ts'

const HELP = `Usage: npm run build [-- --outdir DIR]

Bundles functions/index.ts for Cloudflare Workers with "wrangler deploy --env '' --dry-run"
(offline, uploads nothing; minified as wrangler.toml says: the Worker "npm run deploy" ships)
into DIR (default dist/), then the edge agent and the relay into
DIR/edge-agent/main.mjs and DIR/relay/main.mjs: one file each that runs with Node 22 alone
(node main.mjs), as their images (infra/edge-agent/Dockerfile, infra/relay/Dockerfile) run it.
Prints each bundle's size.`

const sizeLine = (path: string) => {
  const raw = statSync(path).size
  const gz = gzipSync(readFileSync(path)).length
  return `bundle ${path}: ${(raw / 1024).toFixed(1)} KiB, ${(gz / 1024).toFixed(1)} KiB gzipped`
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(HELP)
    return 0
  }
  const i = argv.indexOf('--outdir')
  const outdir = resolve((i >= 0 ? argv[i + 1] : undefined) ?? 'dist')
  try {
    await buildWorkerBundle(process.cwd(), outdir, { show: true })
  } catch {
    // wrangler has printed the errors.
    return 1
  }
  for (const f of readdirSync(outdir).filter((n) => n.endsWith('.js')))
    console.log(sizeLine(join(outdir, f)))
  try {
    for (const path of await buildNodeBundles(process.cwd(), outdir)) console.log(sizeLine(path))
  } catch (e) {
    // esbuild has printed the errors.
    console.error(`bundling the Node programs failed: ${e instanceof Error ? e.message : e}`)
    return 1
  }
  return 0
}

process.exitCode = await main(process.argv.slice(2))
