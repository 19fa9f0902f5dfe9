/**
 * The architecture documents name only files that exist: every backticked repo path
 * (`lib/...`, `functions/...`, `infra/...`, `test/...`, `bench/...`, `docs/...`, `.ci/...`, or a
 * root file such as `wrangler.toml`) and every relative markdown link must resolve in the tree,
 * and a bare source file name (`removal-plan.ts`) must be some file's name. Sections that code
 * comments cite as `docs/ARCHITECTURE.md, "<section>"` must exist as headings and be listed in
 * the index, so a reader following such a comment finds them after the split into
 * docs/architecture/*.md.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../infra/repo-root.ts'

const INDEX = 'docs/ARCHITECTURE.md'
const ROOTS = new Set(['lib', 'functions', 'infra', 'test', 'bench', 'docs', '.ci'])
const ROOT_FILE = /^[\w.-]+\.(toml|json|cjs|ts|md)$/
const SOURCE_NAME = /^[\w.-]+\.(ts|cjs|mjs)$/
const SOURCE_DIRS = ['lib', 'functions', 'infra', 'test', 'bench']

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(join(REPO_ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${e.name}`
    if (e.isDirectory()) walk(path, out)
    else out.push(path)
  }
  return out
}

const PARTS = 'docs/architecture'
const docs = () => [
  INDEX,
  ...(existsSync(join(REPO_ROOT, PARTS)) ? readdirSync(join(REPO_ROOT, PARTS)) : [])
    .filter((f) => f.endsWith('.md'))
    .map((f) => `${PARTS}/${f}`),
]

const basenames = new Set(SOURCE_DIRS.flatMap((d) => walk(d)).map((p) => p.split('/').pop()))

/** Backticked repo paths and bare source names, and relative link targets, of one document. */
function namedPaths(text: string): { paths: string[]; names: string[]; links: string[] } {
  const paths: string[] = []
  const names: string[] = []
  for (const [, token = ''] of text.matchAll(/`([^`\s]+)`/g)) {
    if (!/^[\w.-]+(\/[\w.-]+)*\/?$/.test(token)) continue
    const first = token.split('/')[0] ?? ''
    if (token.includes('/')) {
      if (ROOTS.has(first)) paths.push(token)
    } else if (ROOT_FILE.test(token) && existsSync(join(REPO_ROOT, token))) paths.push(token)
    else if (SOURCE_NAME.test(token)) names.push(token)
  }
  const links = [...text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)]
    .map(([, target = '']) => target)
    .filter((t) => !/^[a-z]+:/.test(t))
  return { paths, names, links }
}

/** GitHub's anchor of a heading: lowercase, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-')

const headingsOf = (text: string) => [...text.matchAll(/^#+ (.+)$/gm)].map(([, h = '']) => h)

describe('docs/architecture-paths', () => {
  it('finds repo paths, bare names and links in a text', () => {
    const text =
      'See `lib/hub/write.ts`, `removal-plan.ts`, `kcp.io/cluster`, `apps/v1`, ' +
      '`.edgeplane/kubeconfig`, `/hooks/<step>` and [infra](../infra/README.md#x).'
    expect(namedPaths(text)).toEqual({
      paths: ['lib/hub/write.ts'],
      names: ['removal-plan.ts'],
      links: ['../infra/README.md'],
    })
  })

  it.each(docs())('%s names only existing files', (doc) => {
    const { paths, names, links } = namedPaths(readFileSync(join(REPO_ROOT, doc), 'utf8'))
    const missing = [
      ...paths.filter((p) => !existsSync(join(REPO_ROOT, p))),
      ...names.filter((n) => !basenames.has(n)),
      ...links.filter((l) => !existsSync(join(REPO_ROOT, dirname(doc), l))),
    ]
    expect(missing).toEqual([])
  })

  it.each(docs())('%s links only to headings that exist', (doc) => {
    const text = readFileSync(join(REPO_ROOT, doc), 'utf8')
    const broken: string[] = []
    for (const [, target = '', anchor = ''] of text.matchAll(/\]\(([^)#\s]*)#([^)\s]+)\)/g)) {
      const file = target ? join(REPO_ROOT, dirname(doc), target) : join(REPO_ROOT, doc)
      if (!file.endsWith('.md') || !existsSync(file)) continue
      if (!headingsOf(readFileSync(file, 'utf8')).map(slug).includes(anchor))
        broken.push(`${target}#${anchor}`)
    }
    expect(broken).toEqual([])
  })

  it('lists every section that code cites, and each is a heading', () => {
    const headings = new Set(
      docs().flatMap((d) => headingsOf(readFileSync(join(REPO_ROOT, d), 'utf8')))
    )
    const index = readFileSync(join(REPO_ROOT, INDEX), 'utf8').replace(/\s+/g, ' ')
    const cited = new Set<string>()
    for (const file of [...SOURCE_DIRS.flatMap((d) => walk(d)), 'README.md', 'infra/README.md']) {
      if (!/\.(ts|md)$/.test(file) || file.startsWith('test/docs/')) continue
      const text = readFileSync(join(REPO_ROOT, file), 'utf8').replace(
        /\s*\n\s*(\*|\/\/)?\s*/g,
        ' '
      )
      for (const m of text.matchAll(/docs\/ARCHITECTURE\.md\)?,? \(?"([^"]+)"/g)) cited.add(m[1]!)
      for (const m of text.matchAll(/"([^"]+)" in docs\/ARCHITECTURE\.md/g)) cited.add(m[1]!)
    }
    expect(cited.size).toBeGreaterThan(0)
    const unknown = [...cited].filter((s) => !headings.has(s) || !index.includes(s))
    expect(unknown).toEqual([])
  })
})
