/**
 * The Node programs that ship as container images, bundled by `npm run build` (build.ts) with
 * esbuild into one self-contained ES module each: every import from lib/, infra/ and
 * node_modules inlined, only Node's built-in modules left as imports, so the file runs from an
 * empty folder with nothing but Node 22 (`node main.mjs`), which is what each Dockerfile copies
 * onto the official Node image. `.mjs`, so no package.json is needed to make it a module; a
 * `require` is defined for the CommonJS packages inside (client-node's and the AWS SDK's
 * dependencies) that load built-ins with it. Not minified: stack traces keep their names. The one
 * exception to "built-ins only" is OPTIONAL_ADDONS, left out on purpose. Before anything else runs,
 * NODE_VERSION_CHECK ends an older Node with one clear line (exit 1) instead of a TypeError from
 * deep inside a bundled package.
 */
import { join } from 'node:path'
import { build } from 'esbuild'

export type NodeBundle = {
  /** Folder under the output folder, also the image's name. */
  name: string
  /** Entry point, relative to the repository root. */
  entry: string
}

export const NODE_BUNDLES: readonly NodeBundle[] = [
  { name: 'edge-agent', entry: 'infra/edge-agent/main.ts' },
  { name: 'relay', entry: 'infra/relay/main.ts' },
]

/**
 * Native add-ons a bundled package tries to load and does without: `ws` (under client-node)
 * requires these speed-ups inside try/catch and falls back to plain JavaScript. Marked external so
 * the bundle never depends on whether they happen to be installed here; the image has none.
 */
export const OPTIONAL_ADDONS = ['bufferutil', 'utf-8-validate']

/** Where a bundle is written, relative to the output folder. */
export const bundleFile = (b: Pick<NodeBundle, 'name'>) => join(b.name, 'main.mjs')

/** The oldest Node the bundles run on (package.json's engines). */
export const MIN_NODE = [22, 12] as const

/** First statement of each bundle: exit 1 with a plain message on a Node older than MIN_NODE. */
export const NODE_VERSION_CHECK =
  `{ const [maj, min] = process.versions.node.split('.').map(Number);` +
  ` if (maj < ${MIN_NODE[0]} || (maj === ${MIN_NODE[0]} && min < ${MIN_NODE[1]})) {` +
  ` process.stderr.write('edgeplane: this program needs Node.js >= ${MIN_NODE.join('.')}; this is ' + process.version + '\\n');` +
  ' process.exit(1) } }'

const REQUIRE_SHIM =
  "import { createRequire as __bundleRequire } from 'node:module';\n" +
  'const require = __bundleRequire(import.meta.url);'

/** Bundles one program (`entry`, relative to `root`) into `outfile`, as the images run it. */
export async function bundleProgram(root: string, entry: string, outfile: string): Promise<void> {
  await build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    banner: { js: `${REQUIRE_SHIM}\n${NODE_VERSION_CHECK}` },
    external: OPTIONAL_ADDONS,
    legalComments: 'none',
    logLevel: 'warning',
  })
}

/** Bundles each program into `<outdir>/<name>/main.mjs`; resolves with the paths written. */
export async function buildNodeBundles(root: string, outdir: string): Promise<string[]> {
  const written: string[] = []
  for (const b of NODE_BUNDLES) {
    const outfile = join(outdir, bundleFile(b))
    await bundleProgram(root, b.entry, outfile)
    written.push(outfile)
  }
  return written
}
