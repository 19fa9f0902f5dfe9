/**
 * The images' file layout, checked against what `npm run build` really writes (built into a
 * temporary folder): for infra/edge-agent/Dockerfile and infra/relay/Dockerfile, the header's
 * build line names the image reference of lib/edge/manifests-image.ts and dist/ as the context;
 * the base is the official Node 22 image; every COPY source exists in the built context and
 * nothing but the bundle is copied; the entrypoint runs a file a COPY put there, as a numeric
 * non-root user; the health port is exposed; and the bundle needs nothing the image lacks: read
 * by esbuild from an empty folder it pulls in no other file and imports only Node's built-ins,
 * and its inner `require` calls name only built-ins, or an optional add-on loaded inside a `try`.
 */
import { mkdir, readFile, stat } from 'node:fs/promises'
import { isBuiltin } from 'node:module'
import { dirname, join, posix } from 'node:path'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundleFile, NODE_BUNDLES, OPTIONAL_ADDONS } from '../../infra/node-bundles.ts'
import { REPO_ROOT } from '../../infra/repo-root.ts'
import { EDGE_AGENT_IMAGE, HEALTH_PORT, RELAY_IMAGE } from '../../lib/edge/manifests-image.ts'
import { BUILD_TIMEOUT_MS, copyAlone, removeMade, runBuild } from './build-output.ts'

type Instruction = { op: string; args: string }

/** Instructions (continuations joined, comments dropped) and the header comment's lines. */
function parseDockerfile(text: string): { header: string[]; instructions: Instruction[] } {
  const lines = text.split('\n')
  const header: string[] = []
  for (const l of lines) {
    if (!l.startsWith('#')) break
    header.push(l.replace(/^#\s?/, ''))
  }
  const joined = lines
    .filter((l) => !/^\s*#/.test(l))
    .join('\n')
    .replace(/\\\n/g, ' ')
  const instructions = joined
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const [op = '', ...rest] = l.split(/\s+/)
      return { op: op.toUpperCase(), args: rest.join(' ') }
    })
  return { header, instructions }
}

const IMAGES: Record<string, string> = { 'edge-agent': EDGE_AGENT_IMAGE, relay: RELAY_IMAGE }

let outdir: string
beforeAll(async () => {
  ;({ outdir } = await runBuild())
}, BUILD_TIMEOUT_MS)
afterAll(removeMade)

describe.each(NODE_BUNDLES.map((b) => [b.name, b] as const))('%s image', (name, bundle) => {
  const dockerfile = `infra/${name}/Dockerfile`
  let parsed: ReturnType<typeof parseDockerfile>
  const all = (op: string) => parsed.instructions.filter((i) => i.op === op)
  beforeAll(async () => {
    parsed = parseDockerfile(await readFile(join(REPO_ROOT, dockerfile), 'utf8'))
  })

  it('documents its build: this Dockerfile, the one image reference, dist/ as the context', () => {
    const builds = parsed.header
      .map((l) => /^\s*(?:docker|podman) build (.+)$/.exec(l)?.[1]?.split(/\s+/))
      .filter((a) => a !== undefined)
    expect(builds).toEqual([['-f', dockerfile, '-t', IMAGES[name], 'dist']])
    expect(parsed.header.some((l) => l.trim() === 'npm run build')).toBe(true)
  })

  it('starts from the official Node 22 image, one stage', () => {
    expect(all('FROM').map((i) => i.args)).toHaveLength(1)
    expect(all('FROM')[0]?.args).toMatch(/^node:22(-[a-z0-9.-]+)?$/)
    expect(all('ADD')).toEqual([])
  })

  it('copies files that the build made, and only the bundle', async () => {
    const copies = all('COPY')
    expect(copies.length).toBeGreaterThan(0)
    const sources: string[] = []
    for (const c of copies) {
      const words = c.args.split(/\s+/).filter((w) => !w.startsWith('--'))
      expect(c.args, 'no COPY --from: one stage').not.toMatch(/--from/)
      sources.push(...words.slice(0, -1))
    }
    for (const src of sources) {
      const st = await stat(join(outdir, src)).catch(() => undefined)
      expect(st?.isFile(), `${src} in the built context`).toBe(true)
    }
    expect(sources).toEqual([bundleFile(bundle)])
  })

  it('runs a copied file with node, as a numeric non-root user, exposing the health port', () => {
    const workdir = all('WORKDIR').at(-1)?.args ?? '/'
    const destinations = all('COPY').map((c) => posix.resolve(workdir, c.args.split(/\s+/).at(-1)!))
    const entry = JSON.parse(all('ENTRYPOINT').at(-1)?.args ?? '[]') as string[]
    expect(entry[0]).toBe('node')
    expect(destinations).toContain(posix.resolve(workdir, entry[1] ?? ''))
    expect(entry).toHaveLength(2)
    expect(all('CMD')).toEqual([])
    const user = all('USER').at(-1)?.args ?? ''
    expect(user).toMatch(/^[1-9]\d*(:\d+)?$/)
    expect(all('EXPOSE').map((e) => e.args)).toEqual([String(HEALTH_PORT)])
  })

  it('needs nothing but Node: no file pulled in, only built-in imports', async () => {
    const copy = await copyAlone(join(outdir, bundleFile(bundle)))
    const dir = dirname(copy)
    await mkdir(join(dir, 'out'))
    const result = await build({
      absWorkingDir: dir,
      entryPoints: [copy],
      outdir: join(dir, 'out'),
      bundle: true,
      write: false,
      metafile: true,
      platform: 'node',
      format: 'esm',
      logLevel: 'silent',
    })
    const inputs = Object.values(result.metafile.inputs)
    expect(inputs).toHaveLength(1)
    const imports = inputs.flatMap((i) => i.imports)
    expect(imports.length).toBeGreaterThan(0)
    for (const i of imports) {
      expect(i.external, i.path).toBe(true)
      expect(isBuiltin(i.path), i.path).toBe(true)
    }
    const text = await readFile(copy, 'utf8')
    for (const m of text.matchAll(/\b__require\("([^"]+)"\)/g)) {
      const id = m[1] as string
      if (isBuiltin(id)) continue
      expect(OPTIONAL_ADDONS, id).toContain(id)
      const before = text.slice(Math.max(0, m.index - 200), m.index)
      expect(before, `${id} is loaded inside a try`).toMatch(/try \{\s*(const \w+ = )?$/)
    }
  })
})
