/**
 * One image reference per program: the constants carry package.json's version, and every place
 * that names an edgeplane image — the READMEs, every Markdown page under docs/, the Dockerfiles'
 * build lines, the bootstrap CLI's help — names exactly these (no stale tag or other spelling).
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { USAGE as BOOTSTRAP_USAGE } from '../../../infra/edge-bootstrap/cli-args.ts'
import { REPO_ROOT } from '../../../infra/repo-root.ts'
import { DEFAULT_AGENT_IMAGE } from '../../../lib/edge/manifests.ts'
import {
  EDGE_AGENT_IMAGE,
  IMAGE_REPOSITORY,
  IMAGE_VERSION,
  RELAY_IMAGE,
} from '../../../lib/edge/manifests-image.ts'

const read = (path: string) => readFile(join(REPO_ROOT, path), 'utf8')

/** Every Markdown file under docs/ (the architecture index and its pages), as repo paths. */
const docsPages = (await readdir(join(REPO_ROOT, 'docs'), { recursive: true }))
  .filter((f) => f.endsWith('.md'))
  .map((f) => join('docs', f))
  .sort()

const DOCS = [
  'README.md',
  'infra/README.md',
  ...docsPages,
  'infra/edge-agent/Dockerfile',
  'infra/relay/Dockerfile',
]

describe('the image references', () => {
  it('are tagged with the version in package.json', async () => {
    const pkg = JSON.parse(await read('package.json')) as { version: string }
    expect(IMAGE_VERSION).toBe(pkg.version)
    expect(EDGE_AGENT_IMAGE).toBe(`${IMAGE_REPOSITORY}/edge-agent:${pkg.version}`)
    expect(RELAY_IMAGE).toBe(`${IMAGE_REPOSITORY}/relay:${pkg.version}`)
    expect(DEFAULT_AGENT_IMAGE).toBe(EDGE_AGENT_IMAGE)
  })

  it.each(DOCS)('are the only edgeplane images %s names', async (path) => {
    const text = await read(path)
    const named = text.match(/[\w.-]+(\/[\w.-]+)*\/(edge-agent|relay):[\w.-]+/g) ?? []
    for (const ref of named) expect([EDGE_AGENT_IMAGE, RELAY_IMAGE]).toContain(ref)
    for (const stale of ['edgeplane/edge-agent:dev', 'edgeplane-edge-agent', 'edgeplane-relay'])
      expect(text).not.toContain(stale)
  })

  it('are checked in every page of docs/', () => {
    expect(docsPages).toContain('docs/ARCHITECTURE.md')
    expect(docsPages.some((p) => p.startsWith('docs/architecture/'))).toBe(true)
  })

  it('are named where a user looks for them', async () => {
    expect(await read('README.md')).toContain(EDGE_AGENT_IMAGE)
    const infra = await read('infra/README.md')
    expect(infra).toContain(EDGE_AGENT_IMAGE)
    expect(infra).toContain(RELAY_IMAGE)
    expect(BOOTSTRAP_USAGE).toContain(EDGE_AGENT_IMAGE)
  })
})
